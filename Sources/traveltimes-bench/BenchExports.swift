import CommuteCore
import Foundation

// 2i. Exports (issue 39): `refresh` of the fixture with all four exports (Home Assistant against
// its stand-in, MQTT against mosquitto when installed, an iCalendar file, a Prometheus textfile)
// beside the same refresh in a store without them, run for run (target ≤ 1.2×); and a tick that
// changes nothing, which must write and send nothing.
@MainActor
func benchExports() {
    let directory = home + "-exports"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var plain = environment
    plain["TRAVELTIMES_HOME"] = directory + "/plain"
    var exported = environment
    exported["TRAVELTIMES_HOME"] = directory + "/exported"
    for setup in [plain, exported] {
        must(["refresh", "--source", options.fixture, "--now", now], environment: setup)
        must(["favorites", "add", "1", "96", "4", "70"], environment: setup)
        must(["schedule", "add", "--preset", "morning", "--now", now], environment: setup)
    }
    must(["export", "add", "ics", directory + "/leave.ics", "--now", now], environment: exported)
    must(["export", "add", "prometheus", directory + "/traveltimes.prom", "--now", now], environment: exported)
    var kinds = ["ics", "prometheus"]
    let homeAssistant = LoopbackServer(script: "Tests/Support/homeassistant_server.py", arguments: [directory + "/ha.log"])
    if let homeAssistant {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: options.binary)
        process.arguments = ["export", "add", "homeassistant", homeAssistant.url(""), "--token", "-", "--now", now]
        process.environment = exported
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        if (try? process.run()) != nil {
            input.fileHandleForWriting.write(Data("good-token\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            if process.terminationStatus == 0 { kinds.append("homeassistant") }
        }
    }
    var broker: Process?
    if FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") {
        let port = 20_000 + Int(getpid() % 20_000)
        let config = directory + "/mosquitto.conf"
        _ = FileManager.default.createFile(atPath: config, contents: Data("""
            listener \(port) 127.0.0.1
            allow_anonymous true
            persistence false
            \(getuid() == 0 ? "user root" : "")

            """.utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", config]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            broker = process
            usleep(300_000)
            if spawn(options.binary, ["export", "add", "mqtt", "mqtt://127.0.0.1:\(port)", "--now", now], environment: exported).status == 0 {
                kinds.append("mqtt")
            }
        }
    }
    defer {
        homeAssistant?.stop()
        if let broker {
            kill(broker.processIdentifier, SIGKILL)
            broker.waitUntilExit()
        }
    }
    let arguments = ["refresh", "--source", options.fixture, "--quiet", "--now", now]
    let (refresh, ratio) = measureAgainst(
        options, baseline: (path: options.binary, arguments: arguments, environment: plain), options.binary, arguments, environment: exported)
    report("traveltimes refresh, fixture, exports: \(kinds.joined(separator: ", "))", milliseconds(refresh),
           String(format: "%.2f× without them; target ≤ 1.2×", ratio), ratio <= 1.2 && kinds.count == 4)

    // A tick with nothing due: not a byte written, nothing sent (the stand-in's log unchanged).
    func stamps() -> [String] {
        [directory + "/leave.ics", directory + "/traveltimes.prom", directory + "/exported/exports.json", directory + "/ha.log"].map { path in
            var info = stat()
            return stat(path, &info) == 0 ? "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_size)" : "none"
        }
    }
    let before = stamps()
    let (tick, _) = measure(options, options.binary, ["tick", "--quiet", "--now", now], environment: exported)
    let quiet = stamps() == before
    report("traveltimes tick, nothing due, the four exports", milliseconds(tick), quiet ? "wrote and sent nothing" : "wrote or sent something", quiet)

    // Costs flat as a household grows (issue 49): the same refresh with every route of the fixture
    // a favourite (163), in a copy of the store, beside it with four, run for run (each store
    // remembers what it sent; the files are written by both).
    let many = directory + "/exported-163"
    do { try FileManager.default.copyItem(atPath: directory + "/exported", toPath: many) } catch {
        return report("traveltimes refresh, the exports, 163 favourites", "     n/a", "cannot copy the store: \(error)", false)
    }
    var grown = exported
    grown["TRAVELTIMES_HOME"] = many
    must(["favorites", "add"] + fixtureRoutes.map(\.id.rawValue).filter { !["1", "96", "4", "70"].contains($0) }, environment: grown)
    let (manyTime, manyRatio) = measureAgainst(
        options, baseline: (path: options.binary, arguments: arguments, environment: exported), options.binary, arguments, environment: grown)
    let manyPeak = peakMemory(options.binary, arguments, environment: grown)
    report("traveltimes refresh, the exports, 163 favourites", milliseconds(manyTime),
           String(format: "%.2f× with 4 favourites; target ≤ 2× and ≤ 30 MiB (%@)", manyRatio, mebibytes(manyPeak)),
           manyRatio <= 2 && Double(manyPeak ?? .max) / 1024 <= 30)
}
