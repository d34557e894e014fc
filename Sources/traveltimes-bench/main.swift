// Benchmarks for Scripts/bench. Prints medians beside a baseline measured in the same run:
// a bare Foundation binary built the same way. Not a test: it asserts nothing, it reports.
import CommuteCore
@_spi(Store) import CommuteDelivery
@_spi(Store) import CommuteStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

struct Options {
    /// The binary as Scripts/install builds it: release, the Swift runtime linked in.
    var binary = ".build/install/release/traveltimes"
    var hello = ".build/release/foundation-hello"
    var fixture = "Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json"
    var runs = 21
    /// `--only schedules|year|custom|transitous|follow|household|growth|history|ways|transit|hostile|calendar|exports`: that part alone (with the baseline), for working on it.
    var only: String?
    /// `--keep`: the growth part leaves its stores on disk and says where (for profiling them).
    var keep = false

    func runs(_ part: String) -> Bool { only == nil || only == part }

    init(_ arguments: [String]) {
        var words = arguments.makeIterator()
        while let word = words.next() {
            switch word {
            case "--binary": binary = words.next() ?? binary
            case "--hello": hello = words.next() ?? hello
            case "--fixture": fixture = words.next() ?? fixture
            case "--runs": runs = words.next().flatMap(Int.init) ?? runs
            case "--only": only = words.next()
            case "--keep": keep = true
            default: FileHandle.standardError.write(Data("unknown option \(word)\n".utf8))
            }
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let fixtureRoutes: [Route]
do {
    fixtureRoutes = try WSDOTFeed.decode(Data(contentsOf: URL(fileURLWithPath: options.fixture)))
} catch {
    FileHandle.standardError.write(Data("cannot read the fixture: \(error)\n".utf8))
    exit(1)
}
let capturedAt = Date(timeIntervalSince1970: 1_762_300_800)
let zone = IANAZone(identifier: "America/Los_Angeles") ?? .utc
var generator = SystemRandomNumberGenerator()

print("traveltimes benchmarks — medians of \(options.runs) runs (after one warm-up)")
print("")

// 1. Fan-out of 10,000 schedules under the cap, in-process, calendar construction included.
let routeIDs = fixtureRoutes.map(\.id)
let routesByID = Dictionary(fixtureRoutes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
let tenThousand = (0..<10_000).map { index in
    Schedule(
        routeIDs: [routeIDs[index % routeIDs.count], routeIDs[(index * 7 + 3) % routeIDs.count]],
        days: Set(Weekday.allCases.filter { _ in Bool.random(using: &generator) }).union([.monday]),
        hour: Int.random(in: 0...23, using: &generator), minute: Int.random(in: 0...59, using: &generator),
        createdAt: capturedAt.addingTimeInterval(TimeInterval(index)))
}
var fanOutTimes: [Double] = []
var requested = 0
for _ in 0..<(options.runs + 1) {
    let start = DispatchTime.now().uptimeNanoseconds
    let calendar = ZonedCalendar(timeZone: zone, around: capturedAt)
    // As a reschedule runs it: due occurrences inside a 10-minute grace window looked for too.
    let plan = FanOut.plan(
        schedules: tenThousand, routes: routesByID, now: capturedAt, calendar: calendar, cap: 64,
        due: DueOccurrences(grace: 600, since: [:], finished: [:]))
    fanOutTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    requested = plan.requested
}
fanOutTimes.removeFirst()
let fanOut = median(fanOutTimes)
report("fan-out, 10,000 schedules, cap 64 (\(requested))", milliseconds(fanOut), "target ≤ 10 ms", fanOut <= 0.010)

// A store with the fixture and 9 schedules, as a user would have.
let home = FileManager.default.temporaryDirectory.appendingPathComponent("traveltimes-bench-\(UUID().uuidString)").path
defer { try? FileManager.default.removeItem(atPath: home) }
let environment = [
    "TRAVELTIMES_HOME": home, "TRAVELTIMES_TZ": "America/Los_Angeles", "HOME": home,
    "PATH": ProcessInfo.processInfo.environment[.path] ?? "/usr/bin:/bin",
]
let now = "2025-11-04T16:00:00-08:00"
func must(_ arguments: [String], environment: [String: String]) {
    let sample = spawn(options.binary, arguments, environment: environment)
    if sample.status != 0 {
        FileHandle.standardError.write(Data("setup failed: traveltimes \(arguments.joined(separator: " "))\n".utf8))
        exit(1)
    }
}
must(["refresh", "--source", options.fixture, "--now", now], environment: environment)
must(["favorites", "add", "1", "96", "4", "70"], environment: environment)
for (index, time) in ["6:30", "7:00", "7:30", "8:00", "16:00", "16:30", "17:00", "17:30", "9:00"].enumerated() {
    must(["schedule", "add", "--at", time, "--days", index == 8 ? "weekends" : "weekdays", "--now", now], environment: environment)
}

// 2. `pending` as a whole process beside a bare Foundation binary, run for run.
let (hello, helloPeak) = measure(options, options.hello, [], environment: environment)
report("baseline: bare Foundation 'hello' process", milliseconds(hello), "", nil)
let helloRun = (path: options.hello, arguments: [String](), environment: environment)
let (pending, pendingRatio) = measureAgainst(options, baseline: helloRun, options.binary, ["pending", "--now", now], environment: environment)
let pendingPeak = peakMemory(options.binary, ["pending", "--now", now], environment: environment)
report("traveltimes pending (163 routes, 9 schedules)", milliseconds(pending),
       String(format: "%.2f× baseline; target ≤ 2×", pendingRatio), pendingRatio <= 2)

// 2b. `tick` with nothing due (4:00 PM Tuesday: the next alert is 4:30), as cron runs it every minute.
let (tick, tickRatio) = measureAgainst(options, baseline: helloRun, options.binary, ["tick", "--now", now], environment: environment)
let tickPeak = peakMemory(options.binary, ["tick", "--now", now], environment: environment)
report("traveltimes tick, nothing due (9 schedules)", milliseconds(tick),
       String(format: "%.2f× baseline; target ≤ 1.5× (tick %@)", tickRatio, mebibytes(tickPeak)), tickRatio <= 1.5)
// The CPU it costs every minute on a small machine, against a bare dynamic Foundation binary's.
let (tickCPU, tickCPURatio) = cpuAgainst(options, baseline: helloRun, options.binary, ["tick", "--now", now], environment: environment)
report("traveltimes tick, nothing due: CPU time", milliseconds(tickCPU),
       String(format: "%.2f× the baseline's CPU; target ≤ 0.8×", tickCPURatio), tickCPURatio <= 0.8)

// 2a'. What Scripts/install puts on disk: the binary (stripped, as it installs it), the man page
// and the three completion scripts.
if let installed = installedBytes(options.binary) {
    report("installed files (stripped binary, man page, completions)", String(format: "%8.1f MiB", Double(installed) / 1_048_576),
           "target ≤ 25 MiB", installed <= 25 << 20)
}

// 2c. `pending` and `tick` with 1,000 and 3,000 schedules of five days each (`scheduleStore`: a
// month of deliveries in the ledger, the steady state).
let calendar = ZonedCalendar(timeZone: zone, around: capturedAt, daysBefore: 40, daysAfter: 20)
/// The same wall-clock time `days` days before `date`.
func daysEarlier(_ days: Int, _ date: Date) -> Date? {
    let local = calendar.local(date)
    return calendar.instant(on: CivilDate(dayNumber: local.date.dayNumber - days), hour: local.hour, minute: local.minute)
}
for count in [1_000, 3_000] where options.runs("schedules") {
    let manyEnvironment = scheduleStore(count)
    defer { try? FileManager.default.removeItem(atPath: manyEnvironment["TRAVELTIMES_HOME"] ?? "") }
    let label = count == 1_000 ? "1,000" : "3,000"
    let (pendingMany, pendingManyRatio) = measureAgainst(
        options, baseline: helloRun, options.binary, ["pending", "--now", now], environment: manyEnvironment)
    report("traveltimes pending (\(label) schedules)", milliseconds(pendingMany),
           String(format: "%.2f× baseline; target ≤ 2×", pendingManyRatio), pendingManyRatio <= 2)
    let (tickMany, tickManyRatio) = measureAgainst(
        options, baseline: helloRun, options.binary, ["tick", "--now", now], environment: manyEnvironment)
    let missed = ((try? Store(directory: manyEnvironment["TRAVELTIMES_HOME"] ?? "").ledger().entries) ?? []).count { $0.outcome == .missed }
    report("traveltimes tick, nothing due (\(label) schedules, a month of ledger)", milliseconds(tickMany),
           String(format: "%.2f× baseline; target ≤ 1.5× (%d missed)", tickManyRatio, missed), tickManyRatio <= 1.5)
}

// 2c'. A year of use: the ledger an older version left (78,110 decisions: it pruned only when it
// delivered), then one tick that writes it. Every write keeps the last 30 days, so `status`,
// `delivered` and `refresh` read a month.
if options.runs("year") { benchYearOfLedger() }
// 2d. `pending` and `tick` with 50 custom routes in the store beside the feed's, three of them in
// the schedules, and a refresh of those 50 from the loopback stand-in for the three providers.
let custom = home + "-custom"
defer { try? FileManager.default.removeItem(atPath: custom) }
var customEnvironment = environment
customEnvironment["TRAVELTIMES_HOME"] = custom
must(["refresh", "--source", options.fixture, "--now", now], environment: customEnvironment)
do {
    let store = try Store(directory: custom)
    try store.updateCustomRoutes { routes in
        routes = (0..<50).compactMap { index -> Route? in
            guard let from = Coordinate(latitude: 47 + Double(index) / 100, longitude: -122.3),
                let to = Coordinate(latitude: 47.5, longitude: -122 - Double(index) / 100)
            else { return nil }
            let provider = RouteProvider.allCases[index % 3]
            return Route(
                id: "custom-\(index)", name: "Custom \(index)", description: nil, currentMinutes: 20 + index % 9, averageMinutes: 20,
                distanceMiles: 9.5, updatedAt: capturedAt,
                custom: Route.Custom(provider: provider, from: from, to: to, fetchedAt: capturedAt, triedAt: capturedAt))
        }
    }
} catch {
    FileHandle.standardError.write(Data("cannot write the custom routes: \(error)\n".utf8))
    exit(1)
}
must(["favorites", "add", "1", "96", "custom-0", "custom-1", "custom-2"], environment: customEnvironment)
for (index, time) in ["6:30", "7:00", "7:30", "8:00", "16:00", "16:30", "17:00", "17:30", "9:00"].enumerated() {
    must(["schedule", "add", "--at", time, "--days", index == 8 ? "weekends" : "weekdays", "--now", now], environment: customEnvironment)
}
// And three arrive-by schedules, whose leave times come from the routes at every plan.
for (time, routes) in [("8:30", "custom-0,1"), ("9:00", "96,custom-1"), ("17:45", "custom-2,custom-0")] {
    must(["schedule", "add", "--arrive-by", time, "--days", "weekdays", "--route", routes, "--now", now], environment: customEnvironment)
}
let (pendingCustom, pendingCustomRatio) = measureAgainst(
    options, baseline: helloRun, options.binary, ["pending", "--now", now], environment: customEnvironment)
report("traveltimes pending (50 custom routes, 9 + 3 arrive-by schedules)", milliseconds(pendingCustom),
       String(format: "%.2f× baseline; target ≤ 2×", pendingCustomRatio), pendingCustomRatio <= 2)
let (tickCustom, tickCustomRatio) = measureAgainst(
    options, baseline: helloRun, options.binary, ["tick", "--now", now], environment: customEnvironment)
report("traveltimes tick, nothing due (custom routes, arrive-by)", milliseconds(tickCustom),
       String(format: "%.2f× baseline; target ≤ 1.5×", tickCustomRatio), tickCustomRatio <= 1.5)
// 2e. A refresh of 500 custom routes from the loopback stand-in, every one asked (--all): one
// fetch helper serving every request, four at a time, over kept connections.
if options.runs("custom") { benchCustomRoutes() }
if options.runs("transitous") { benchTransitous() }
if options.runs("follow") { benchFollow() }
// 2i. A household's week against the oracle, the request plan beside today's behaviour (issue 49).
if options.runs("household") { benchHousehold() }
if options.runs("growth") { benchGrowth() }
 else if options.runs("custom") {
    report("traveltimes refresh, 500 custom routes", "     n/a", "needs python3", nil)
}
/// A feed of 10,000 routes made from the fixture's, each with its own ID.
func writeGeneratedFeed(to path: String) {
    let generated = (1...10_000).map { index in
        let template = fixtureRoutes[index % fixtureRoutes.count]
        var route = template
        route.id = RouteID(String(index))
        route.currentMinutes = template.currentMinutes.map { $0 + index % 7 }
        return route
    }
    do {
        try WSDOTFeed.encode(generated).write(to: URL(fileURLWithPath: path))
    } catch {
        FileHandle.standardError.write(Data("cannot write the generated feed: \(error)\n".utf8))
        exit(1)
    }
}

// 2e. History: a year of readings every 5 minutes for 10 routes (issue 20). `history` and
// `best-time` over it; the size of a route-year; what recording adds to a refresh of 10,000
// routes (the same store with history-days off as the baseline); pending with it all in place.
if options.runs("history") { benchHistory() }
if options.runs("ways") { benchWays() }
// 2f. Transit (issue 21): a timetable the size of King County Metro's (56,500 trips, 1,977,500
// stop_times rows, made by Tests/Support/transit_large.py) added, four routes on it, a new
// timetable taken by refresh (every route read in the same pass), a large agency's realtime feed
// (5,000 trip updates, 3.2 MB) decoded in process and read by a whole refresh, and pending and tick
// with arrive-by schedules on the transit routes.
if options.runs("transit") { benchTransit() }
// 2g. Hostile input (issue 34): the inputs of Tests/Support/transit_hostile.py — a 21 KB zip of
// 2,000 trips every minute for two days, two million trips in trips.txt, a 32 MB realtime feed of
// empty stop-time updates — and a history import of 500,000 lines, 200,000 of them for routes
// nobody knows. Each at most 100 MiB, the target for any command on hostile input (the 30 MiB of
// an everyday realtime refresh is section 2f's, on a large agency's real-sized feed).
if options.runs("hostile") { benchHostileInput() }
if options.runs("calendar") { benchCalendars() }
if options.runs("exports") { benchExports() }
guard options.only == nil else { exit(0) }

// 3. refresh of the fixture and of a generated 10,000-route feed, whole process.
let (refreshFixture, refreshFixturePeak) = measure(options, options.binary, ["refresh", "--source", options.fixture, "--now", now], environment: environment)
report("traveltimes refresh, 163-route fixture", milliseconds(refreshFixture), "", nil)
let bigFeed = home + "/feed-10000.json"
writeGeneratedFeed(to: bigFeed)
let (refreshBig, refreshBigPeak) = measure(options, options.binary, ["refresh", "--source", bigFeed, "--now", now], environment: environment)
report("traveltimes refresh, generated 10,000 routes", milliseconds(refreshBig), "target ≤ 300 ms", refreshBig <= 0.300)

// 5. refresh from a loopback HTTP server (whole process) beside the file refresh above.
if let server = LoopbackServer(script: "Tests/Support/feed_server.py", arguments: [options.fixture]) {
    let fileRefresh = (path: options.binary, arguments: ["refresh", "--source", options.fixture, "--now", now], environment: environment)
    let (loopback, loopbackRatio) = measureAgainst(
        options, baseline: fileRefresh, options.binary, ["refresh", "--source", server.url("/feed"), "--now", now], environment: environment)
    let loopbackPeak = peakMemory(options.binary, ["refresh", "--source", server.url("/feed"), "--now", now], environment: environment)
    report("traveltimes refresh, loopback HTTP, fixture", milliseconds(loopback),
           String(format: "%.2f× file refresh; target ≤ 3×", loopbackRatio), loopbackRatio <= 3)
    // The fetch helper loads libcurl and TLS: its memory is shown apart from the target, which is
    // for refreshing from a file.
    print("     (loopback refresh, largest of traveltimes and its fetch helper: \(mebibytes(loopbackPeak)))")
    server.stop()
} else {
    report("traveltimes refresh, loopback HTTP", "     n/a", "needs python3", nil)
}

// 6. routes --search on a 10,000-route cache (the cache from the 10,000-route refresh above).
must(["refresh", "--source", bigFeed, "--now", now], environment: environment)
let (search, _) = measure(options, options.binary, ["routes", "--search", "everett", "--now", now], environment: environment)
report("traveltimes routes --search, 10,000 routes", milliseconds(search), "target ≤ 50 ms", search <= 0.050)

// 4. Peak memory of each traveltimes process above (GNU time's maximum resident set size).
let peaks = [pendingPeak, refreshFixturePeak, refreshBigPeak].compactMap { $0 }
if let peak = peaks.max(), peaks.count == 3 {
    report("peak memory (largest of the runs above)", String(format: "%8.1f MiB", Double(peak) / 1024),
           "hello \(mebibytes(helloPeak)); target ≤ 30 MiB", Double(peak) / 1024 <= 30)
} else {
    report("peak memory", "     n/a", "needs /usr/bin/time (Debian package: time)", nil)
}
print("     (pending \(mebibytes(pendingPeak)), refresh fixture \(mebibytes(refreshFixturePeak)), refresh 10,000 \(mebibytes(refreshBigPeak)))")
