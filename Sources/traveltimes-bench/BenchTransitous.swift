import CommuteCore
@_spi(Store) import CommuteStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// 2g. The keyless services: a feed refresh with 20 Transitous routes that no alert needs (nothing
// is sent) against the same refresh without them; the same with 20 OSRM routes estimated today,
// and a tick; reading a 1 MiB plan answer, and the 6.7 MB one of service alerts, in process and as
// `route add` reads it from the loopback stand-in (time and peak memory).
@MainActor
func benchTransitous() {
    let plain = home + "-transitous-none"
    let twenty = home + "-transitous-20"
    defer {
        try? FileManager.default.removeItem(atPath: plain)
        try? FileManager.default.removeItem(atPath: twenty)
    }
    var plainEnvironment = environment
    plainEnvironment["TRAVELTIMES_HOME"] = plain
    var twentyEnvironment = environment
    twentyEnvironment["TRAVELTIMES_HOME"] = twenty
    // Nothing answers here: a request sent would fail the refresh, so none must be.
    twentyEnvironment["TRAVELTIMES_TRANSITOUS_URL"] = "http://127.0.0.1:9"
    do {
        let store = try Store(directory: twenty)
        try store.updateCustomRoutes { routes in
            routes = (0..<20).compactMap { index -> Route? in
                guard let from = Coordinate(latitude: 47.6 + Double(index) / 100, longitude: -122.33),
                    let to = Coordinate(latitude: 47.67, longitude: -122.12 - Double(index) / 100)
                else { return nil }
                return Route(
                    id: "bus-\(index)", name: "Bus \(index)", description: nil, currentMinutes: 40, averageMinutes: 40, distanceMiles: nil,
                    updatedAt: capturedAt,
                    custom: Route.Custom(provider: .transitous, from: from, to: to, fetchedAt: capturedAt, triedAt: capturedAt))
            }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write 20 Transitous routes: \(error)\n".utf8))
        exit(1)
    }
    let arguments = ["refresh", "--source", options.fixture, "--quiet", "--now", now]
    must(arguments, environment: plainEnvironment)
    must(arguments, environment: twentyEnvironment)
    let (refresh, ratio) = measureAgainst(
        options, baseline: (options.binary, arguments, plainEnvironment), options.binary, arguments, environment: twentyEnvironment)
    report("traveltimes refresh, feed + 20 Transitous routes not in play", milliseconds(refresh),
           String(format: "%.2f× the refresh without them; target ≤ 1.1×", ratio), ratio <= 1.1)

    // 20 OSRM routes estimated today: a refresh and a tick cost what they did without them.
    let engines = home + "-engines-20"
    defer { try? FileManager.default.removeItem(atPath: engines) }
    var enginesEnvironment = environment
    enginesEnvironment["TRAVELTIMES_HOME"] = engines
    enginesEnvironment["TRAVELTIMES_OSRM_URL"] = "http://127.0.0.1:9"
    do {
        let store = try Store(directory: engines)
        try store.updateCustomRoutes { routes in
            routes = (0..<20).compactMap { index -> Route? in
                guard let from = Coordinate(latitude: 47.6 + Double(index) / 100, longitude: -122.33),
                    let to = Coordinate(latitude: 47.61, longitude: -122.2 - Double(index) / 100)
                else { return nil }
                return Route(
                    id: "drive-\(index)", name: "Drive \(index)", description: nil, currentMinutes: 17, averageMinutes: nil, distanceMiles: 9,
                    updatedAt: capturedAt, custom: Route.Custom(provider: .osrm, from: from, to: to, fetchedAt: capturedAt, triedAt: capturedAt))
            }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write 20 OSRM routes: \(error)\n".utf8))
        exit(1)
    }
    must(arguments, environment: enginesEnvironment)
    let (engineRefresh, engineRatio) = measureAgainst(
        options, baseline: (options.binary, arguments, plainEnvironment), options.binary, arguments, environment: enginesEnvironment)
    report("traveltimes refresh, feed + 20 OSRM routes estimated today", milliseconds(engineRefresh),
           String(format: "%.2f× the refresh without them; target ≤ 1.05×", engineRatio), engineRatio <= 1.05)
    let tick = ["tick", "--quiet", "--now", now]
    let (engineTick, engineTickRatio) = measureAgainst(
        options, baseline: (options.binary, tick, plainEnvironment), options.binary, tick, environment: enginesEnvironment)
    report("traveltimes tick, + 20 OSRM routes", milliseconds(engineTick),
           String(format: "%.2f× the tick without them; target ≤ 1.05×", engineTickRatio), engineTickRatio <= 1.05)

    // A 1 MiB plan answer read in process: the median of the runs.
    guard let server = LoopbackServer(script: "Tests/Support/transitous_server.py", arguments: ["--control", twenty + "/big.json"]) else { return }
    defer { server.stop() }
    _ = FileManager.default.createFile(atPath: twenty + "/big.json", contents: Data(#"{"fault": "big"}"#.utf8))
    let url = "http://127.0.0.1:\(server.port)"
    guard let request = URL(string: url + "/api/v6/plan?fromPlace=47.6,-122.3&toPlace=47.7,-122.1&time=2025-11-05T16:00:00Z&arriveBy=true"),
        let answer = fetch(request)
    else {
        FileHandle.standardError.write(Data("the stand-in gave no 1 MiB answer\n".utf8))
        return
    }
    var times: [Double] = []
    var itineraries = 0
    for _ in 0..<(options.runs + 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = RoutingAPI.interpret(HTTPResponse(status: 200, headers: [:], body: answer), from: .transitous)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        itineraries = (try? result.get())?.itineraries?.count ?? 0
    }
    times.removeFirst()
    let decode = median(times)
    report(String(format: "reading a %.1f MiB Transitous plan answer (%d itineraries)", Double(answer.count) / 1_048_576, itineraries),
           milliseconds(decode), "target ≤ 20 ms", decode <= 0.020 && itineraries > 0)
    var addEnvironment = environment
    addEnvironment["TRAVELTIMES_HOME"] = twenty
    addEnvironment["TRAVELTIMES_TRANSITOUS_URL"] = url
    let add = ["route", "add", "big", "--provider", "transitous", "--from", "47.6,-122.3", "--to", "47.7,-122.1", "--now", now]
    let peak = peakMemory(options.binary, add, environment: addEnvironment)
    report("traveltimes route add, a 1 MiB Transitous answer: peak memory", mebibytes(peak), "target ≤ 30 MiB",
           peak.map { $0 <= 30 * 1_024 })

    // The 6.7 MB answer of works notices (the recorded RER B ride, rebuilt from its pieces by
    // Tests/Support/motis_alerts.py): read in process, and by `route add` from the stand-in.
    let alerts = twenty + "/alerts.json"
    guard spawn("/usr/bin/env", ["python3", "Tests/Support/motis_alerts.py", alerts], environment: environment).status == 0,
        let huge = FileManager.default.contents(atPath: alerts)
    else {
        FileHandle.standardError.write(Data("cannot rebuild the 6.7 MB answer\n".utf8))
        return
    }
    var hugeTimes: [Double] = []
    var hugeItineraries = 0
    for _ in 0..<(options.runs + 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = RoutingAPI.interpret(HTTPResponse(status: 200, headers: [:], body: huge), from: .transitous)
        hugeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        hugeItineraries = (try? result.get())?.itineraries?.count ?? 0
    }
    hugeTimes.removeFirst()
    let hugeDecode = median(hugeTimes)
    report(String(format: "reading a %.1f MB Transitous answer of notices (%d itineraries)", Double(huge.count) / 1e6, hugeItineraries),
           milliseconds(hugeDecode), "target ≤ 200 ms", hugeDecode <= 0.200 && hugeItineraries > 0)
    _ = FileManager.default.createFile(atPath: twenty + "/big.json", contents: Data("{\"replay\": {\"/api/v6/plan\": \"\(alerts)\"}}".utf8))
    let addHuge = ["route", "add", "rer", "--provider", "transitous", "--from", "48.8809,2.3553", "--to", "48.8617,2.3469",
                   "--now", "2026-08-27T12:40:00+02:00"]
    let hugePeak = peakMemory(options.binary, addHuge, environment: addEnvironment)
    report("traveltimes route add, the 6.7 MB answer: peak memory", mebibytes(hugePeak), "target ≤ 50 MiB",
           hugePeak.map { $0 <= 50 * 1_024 })
}

/// A GET's body, from the loopback stand-in (by Python's client: the benchmark is not the product).
private func fetch(_ url: URL) -> Data? {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-plan-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let script = "import sys, urllib.request; request = urllib.request.Request(sys.argv[1], headers={'User-Agent': 'traveltimes-bench'}); "
        + "open(sys.argv[2], 'wb').write(urllib.request.urlopen(request).read())"
    guard spawn("/usr/bin/env", ["python3", "-c", script, url.absoluteString, file], environment: environment).status == 0 else { return nil }
    return FileManager.default.contents(atPath: file)
}
