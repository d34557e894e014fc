// Benchmarks for Scripts/bench. Prints medians beside a baseline measured in the same run:
// a bare Foundation binary built the same way. Not a test: it asserts nothing, it reports.
import CommuteCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var binary = ".build/release/traveltimes"
    var hello = ".build/release/foundation-hello"
    var fixture = "Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json"
    var runs = 21
    /// `--only schedules|year|custom|history|transit|hostile`: that part alone (with the baseline), for working on it.
    var only: String?

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
            default: FileHandle.standardError.write(Data("unknown option \(word)\n".utf8))
            }
        }
    }
}

/// One finished child process: wall time and peak resident memory.
struct Sample {
    var seconds: Double
    var maxRSSKiB: Int
    var status: Int32
}

/// Runs a program with posix_spawn and reads its rusage with wait4, output to /dev/null.
func spawn(_ path: String, _ arguments: [String], environment: [String: String]) -> Sample {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
        return Sample(seconds: .nan, maxRSSKiB: 0, status: -1)
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return Sample(seconds: seconds, maxRSSKiB: usage.ru_maxrss, status: (status >> 8) & 0xff)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func milliseconds(_ seconds: Double) -> String { String(format: "%8.2f ms", seconds * 1000) }

func report(_ name: String, _ value: String, _ target: String, _ verdict: Bool?) {
    let mark = verdict.map { $0 ? "ok  " : "MISS" } ?? "    "
    print("\(mark) \(name.padding(toLength: 66, withPad: " ", startingAt: 0)) \(value)   \(target)")
}

/// Peak resident memory of one run, in KiB, measured by GNU time: a small C program that forks and
/// execs the target. (A child spawned straight from this process would inherit this process's own
/// high-water mark through vfork, and report it instead of its own.)
func peakMemory(_ path: String, _ arguments: [String], environment: [String: String]) -> Int? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-rss-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    _ = spawn(time, ["-f", "%M", "-o", output, path] + arguments, environment: environment)
    guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
}

/// Times a whole process `runs` times after a warm-up run, and measures its peak memory once.
func measure(_ options: Options, _ path: String, _ arguments: [String], environment: [String: String]) -> (Double, Int?) {
    _ = spawn(path, arguments, environment: environment)
    var times: [Double] = []
    for _ in 0..<options.runs {
        let sample = spawn(path, arguments, environment: environment)
        if sample.status != 0 {
            FileHandle.standardError.write(Data("\(path) \(arguments) exited \(sample.status)\n".utf8))
        }
        times.append(sample.seconds)
    }
    return (median(times), peakMemory(path, arguments, environment: environment))
}

/// A command timed against a baseline, run for run: each run of the command follows a run of the
/// baseline, and the ratio is the median of the paired ratios. On a machine whose speed drifts
/// (a shared VM), drift that would land between two separately timed blocks cancels out.
func measureAgainst(
    _ options: Options, baseline: (path: String, arguments: [String], environment: [String: String]),
    _ path: String, _ arguments: [String], environment: [String: String]
) -> (median: Double, ratio: Double) {
    _ = spawn(baseline.path, baseline.arguments, environment: baseline.environment)
    _ = spawn(path, arguments, environment: environment)
    var times: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<options.runs {
        let base = spawn(baseline.path, baseline.arguments, environment: baseline.environment)
        let sample = spawn(path, arguments, environment: environment)
        if sample.status != 0 {
            FileHandle.standardError.write(Data("\(path) \(arguments) exited \(sample.status)\n".utf8))
        }
        times.append(sample.seconds)
        ratios.append(sample.seconds / base.seconds)
    }
    return (median(times), median(ratios))
}

/// A test server from `Tests/Support` on 127.0.0.1: `feed_server.py` serving the fixture, or
/// `provider_server.py` standing in for the routing providers.
final class LoopbackServer {
    let port: Int
    private let process = Process()
    private let input = Pipe()
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("bench-server-\(UUID().uuidString).log").path

    init?(script: String, arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments + [log]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return nil
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: log)
    }
}

func mebibytes(_ kibibytes: Int?) -> String {
    kibibytes.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "n/a"
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

// 2c. `pending` and `tick` with 1,000 and 3,000 schedules of five days each (64 scheduled, the
// rest deferred), first planned a month ago, with a month of deliveries in the ledger (four weeks
// of every request): the steady state, where every request that fired this week is looked up in
// the ledger at every tick.
let calendar = ZonedCalendar(timeZone: zone, around: capturedAt, daysBefore: 40, daysAfter: 20)
/// The same wall-clock time `days` days before `date`.
func daysEarlier(_ days: Int, _ date: Date) -> Date? {
    let local = calendar.local(date)
    return calendar.instant(on: CivilDate(dayNumber: local.date.dayNumber - days), hour: local.hour, minute: local.minute)
}
for count in [1_000, 3_000] where options.runs("schedules") {
    let many = home + "-\(count)"
    defer { try? FileManager.default.removeItem(atPath: many) }
    var manyEnvironment = environment
    manyEnvironment["TRAVELTIMES_HOME"] = many
    must(["refresh", "--source", options.fixture, "--now", now], environment: manyEnvironment)
    must(["favorites", "add", "1", "96", "4", "70"], environment: manyEnvironment)
    do {
        let store = try Store(directory: many)
        try store.updateSchedules { book in
            book.schedules = (0..<count).map { index in
                Schedule(routeIDs: ["1", "96"], days: Weekday.weekdays, hour: (index / 60) % 24, minute: index % 60, createdAt: capturedAt)
            }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write \(count) schedules: \(error)\n".utf8))
        exit(1)
    }
    must(["refresh", "--source", options.fixture, "--now", "2025-10-07T16:00:00-07:00"], environment: manyEnvironment)
    must(["refresh", "--source", options.fixture, "--now", now], environment: manyEnvironment)
    do {
        let store = try Store(directory: many)
        let book = try store.pending()
        try store.updateLedger(keepingSince: nil) { ledger in
            for entry in book.requests + book.deferred {
                for week in 1...4 {
                    // A week back on the calendar: the same wall-clock time across the November change.
                    guard let occurrence = daysEarlier(7 * week, entry.nextFire) else { continue }
                    ledger.entries.append(.init(
                        alert: entry.id, occurrence: occurrence, notifier: 0, outcome: .delivered, at: occurrence, attempts: 1))
                }
            }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write a month of ledger: \(error)\n".utf8))
        exit(1)
    }
    let label = count == 1_000 ? "1,000" : "3,000"
    let (pendingMany, pendingManyRatio) = measureAgainst(
        options, baseline: helloRun, options.binary, ["pending", "--now", now], environment: manyEnvironment)
    report("traveltimes pending (\(label) schedules)", milliseconds(pendingMany),
           String(format: "%.2f× baseline; target ≤ 2×", pendingManyRatio), pendingManyRatio <= 2)
    let (tickMany, tickManyRatio) = measureAgainst(
        options, baseline: helloRun, options.binary, ["tick", "--now", now], environment: manyEnvironment)
    let missed = ((try? Store(directory: many).ledger().entries) ?? []).count { $0.outcome == .missed }
    report("traveltimes tick, nothing due (\(label) schedules, a month of ledger)", milliseconds(tickMany),
           String(format: "%.2f× baseline; target ≤ 1.5× (%d missed)", tickManyRatio, missed), tickManyRatio <= 1.5)
}

// 2c'. A year of use: the ledger an older version left (78,110 decisions: it pruned only when it
// delivered), then one tick that writes it. Every write keeps the last 30 days, so `status`,
// `delivered` and `refresh` read a month.
if options.runs("year") {
let year = home + "-year"
defer { try? FileManager.default.removeItem(atPath: year) }
var yearEnvironment = environment
yearEnvironment["TRAVELTIMES_HOME"] = year
must(["refresh", "--source", options.fixture, "--now", now], environment: yearEnvironment)
must(["favorites", "add", "1", "96", "4", "70"], environment: yearEnvironment)
for (index, time) in ["6:30", "7:00", "7:30", "8:00", "16:00", "16:30", "17:00", "17:30", "9:00"].enumerated() {
    must(["schedule", "add", "--at", time, "--days", index == 8 ? "weekends" : "weekdays", "--now", now], environment: yearEnvironment)
}
do {
    let store = try Store(directory: year)
    let requests = try store.pending().requests
    try store.updateLedger(keepingSince: nil) { ledger in
        // 214 decisions a day (each request, through up to six notifiers): 78,110 in the year.
        for day in 1...365 {
            for index in 0..<214 {
                let request = requests[index % requests.count]
                guard let occurrence = daysEarlier(day, request.nextFire) else { continue }
                ledger.entries.append(.init(
                    alert: request.id, occurrence: occurrence, notifier: index / requests.count,
                    outcome: index % 5 == 0 ? .suppressed : .delivered, at: occurrence, attempts: 1,
                    reason: index % 5 == 0 ? "not delayed enough: 25 min, threshold 10 min" : nil))
            }
        }
    }
} catch {
    FileHandle.standardError.write(Data("cannot write a year of ledger: \(error)\n".utf8))
    exit(1)
}
let yearBytes = (try? FileManager.default.attributesOfItem(atPath: year + "/delivered.json")[.size] as? Int) ?? 0
// What an upgrade meets once: the year read, the month kept.
let firstStatus = spawn(options.binary, ["status", "--now", now], environment: yearEnvironment)
report("traveltimes status, first run over the year (\(yearBytes >> 20) MB; once)", milliseconds(firstStatus.seconds), "no target: reported", nil)
// The first write of the ledger (the 4:30 PM alert delivered) keeps its last 30 days.
must(["tick", "--now", "2025-11-04T16:30:00-08:00"], environment: yearEnvironment)
let after = "2025-11-04T16:31:00-08:00"
let ledgerBytes = (try? FileManager.default.attributesOfItem(atPath: year + "/delivered.json")[.size] as? Int) ?? 0
for command in [["status"], ["delivered"]] {
    let (time, ratio) = measureAgainst(options, baseline: helloRun, options.binary, command + ["--now", after], environment: yearEnvironment)
    let peak = peakMemory(options.binary, command + ["--now", after], environment: yearEnvironment)
    report("traveltimes \(command[0]) (a year of use: ledger \(String(format: "%.1f", Double(ledgerBytes) / 1_048_576)) MB)", milliseconds(time),
           String(format: "%.2f× baseline, %@; target ≤ 2×, ≤ 30 MiB", ratio, mebibytes(peak)),
           ratio <= 2 && Double(peak ?? .max) / 1024 <= 30)
}
let yearRefreshPeak = peakMemory(options.binary, ["refresh", "--source", options.fixture, "--now", after], environment: yearEnvironment)
report("traveltimes refresh (a year of ledger): peak memory", mebibytes(yearRefreshPeak), "target ≤ 30 MiB",
       Double(yearRefreshPeak ?? .max) / 1024 <= 30)
}

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
if options.runs("custom"), let providers = LoopbackServer(script: "Tests/Support/provider_server.py", arguments: []) {
    let five = home + "-500"
    defer { try? FileManager.default.removeItem(atPath: five) }
    var providerEnvironment = environment
    providerEnvironment["TRAVELTIMES_HOME"] = five
    do {
        let store = try Store(directory: five)
        try store.updateCustomRoutes { routes in
            routes = (0..<500).compactMap { index -> Route? in
                guard let from = Coordinate(latitude: 47 + Double(index % 90) / 100, longitude: -122.3 + Double(index / 90) / 100),
                    let to = Coordinate(latitude: 47.5, longitude: -122 - Double(index) / 1000)
                else { return nil }
                return Route(
                    id: "custom-\(index)", name: "Custom \(index)", description: nil, currentMinutes: 20, averageMinutes: 20,
                    distanceMiles: 9.5, updatedAt: capturedAt,
                    custom: Route.Custom(provider: RouteProvider.allCases[index % 3], from: from, to: to, fetchedAt: capturedAt, triedAt: capturedAt))
            }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write 500 custom routes: \(error)\n".utf8))
        exit(1)
    }
    for provider in RouteProvider.allCases {
        providerEnvironment[provider.baseURLVariable] = "http://127.0.0.1:\(providers.port)"
        providerEnvironment[provider.keyVariable] = "bench-key-\(provider.rawValue)"
        must(["config", "set", provider.budgetSetting, "1000000"], environment: providerEnvironment)
    }
    var fewer = options
    fewer.runs = min(options.runs, 5)
    let (customRefresh, _) = measure(fewer, options.binary, ["refresh", "--all", "--quiet", "--now", now], environment: providerEnvironment)
    report("traveltimes refresh --all, 500 custom routes, loopback", milliseconds(customRefresh), "target ≤ 1.5 s",
           customRefresh <= 1.5)
    providers.stop()
} else if options.runs("custom") {
    report("traveltimes refresh, 500 custom routes", "     n/a", "needs python3", nil)
}
/// A feed of 10,000 routes made from the fixture's, each with its own ID.
func writeGeneratedFeed(to path: String) {
    let generated = (1...10_000).map { index in
        let template = fixtureRoutes[index % fixtureRoutes.count]
        var route = template
        route.id = String(index)
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
if options.runs("history") {
    let historyHome = home + "-history"
    let offHome = home + "-history-off"
    defer {
        try? FileManager.default.removeItem(atPath: historyHome)
        try? FileManager.default.removeItem(atPath: offHome)
    }
    var historyEnvironment = environment
    historyEnvironment["TRAVELTIMES_HOME"] = historyHome
    var offEnvironment = environment
    offEnvironment["TRAVELTIMES_HOME"] = offHome
    let feed = historyHome + "-feed-10000.json"
    defer { try? FileManager.default.removeItem(atPath: feed) }
    writeGeneratedFeed(to: feed)
    let routes = (1...10).map(String.init)
    for env in [historyEnvironment, offEnvironment] {
        must(["refresh", "--source", feed, "--now", now], environment: env)
        must(["favorites", "add"] + routes, environment: env)
        must(["schedule", "add", "--arrive-by", "9:00", "--days", "weekdays", "--route", "1,2", "--now", now], environment: env)
        must(["schedule", "add", "--at", "7:30", "--days", "weekdays", "--route", "3,4", "--only-when-delayed", "auto", "--now", now], environment: env)
    }
    must(["config", "set", "history-days", "off"], environment: offEnvironment)
    do {
        let store = try Store(directory: historyHome)
        let end = Int(ISO8601.parse(now)?.instant?.timeIntervalSince1970 ?? 0)
        var generator = SystemRandomNumberGenerator()
        var byRoute: [String: [HistoryRecord]] = [:]
        for route in routes {
            let base = 20 + (Int(route) ?? 1) * 3
            byRoute[route] = stride(from: end - 365 * 86_400, to: end - 600, by: 300).map { at in
                let hour = (at - 8 * 3_600) % 86_400 / 3_600
                let peak = (7...9).contains(hour) || (16...18).contains(hour) ? 15 : 0
                return HistoryRecord(at: at, minutes: base + peak + Int.random(in: 0...6, using: &generator), source: .wsdot)
            }
        }
        _ = try store.history.record(byRoute, now: Date(timeIntervalSince1970: TimeInterval(end)), retentionDays: 400)
    } catch {
        FileHandle.standardError.write(Data("cannot write a year of history: \(error)\n".utf8))
        exit(1)
    }
    let routeYear = (try? FileManager.default.attributesOfItem(atPath: historyHome + "/history/1.tth")[.size] as? Int) ?? 0
    report("history size: one route, a year at a reading every 5 minutes", String(format: "%8.2f MiB", Double(routeYear) / 1_048_576),
           "\(routeYear) bytes; stated 1.2 MiB", nil)
    for command in [["history", "1"], ["history", "1", "--json"], ["best-time", "1", "2", "3", "--arrive-by", "9:00"]] {
        let (time, peak) = measure(options, options.binary, command + ["--now", now], environment: historyEnvironment)
        report("traveltimes \(command.joined(separator: " ")) (10 routes × a year, every 5 min)", milliseconds(time),
               String(format: "%@; target ≤ 200 ms, ≤ 30 MiB", mebibytes(peak)), time <= 0.200 && Double(peak ?? .max) / 1024 <= 30)
    }
    let offRefresh = (path: options.binary, arguments: ["refresh", "--source", feed, "--now", now], environment: offEnvironment)
    let (recording, recordingRatio) = measureAgainst(
        options, baseline: offRefresh, options.binary, ["refresh", "--source", feed, "--now", now], environment: historyEnvironment)
    report("traveltimes refresh, 10,000 routes, 10 recorded with a year each", milliseconds(recording),
           String(format: "%.3f× with history off; target ≤ 1.05×", recordingRatio), recordingRatio <= 1.05)
    for command in ["pending", "tick"] {
        let (time, ratio) = measureAgainst(options, baseline: helloRun, options.binary, [command, "--now", now], environment: historyEnvironment)
        report("traveltimes \(command) beside a year of history (10 routes)", milliseconds(time),
               String(format: "%.2f× baseline; target ≤ %@", ratio, command == "tick" ? "1.5×" : "2×"),
               ratio <= (command == "tick" ? 1.5 : 2))
    }
}

// 2f. Transit (issue 21): a timetable the size of King County Metro's (56,500 trips, 1,977,500
// stop_times rows, made by Tests/Support/transit_large.py) added, four routes on it, a new
// timetable taken by refresh (every route read in the same pass), a large agency's realtime feed
// (5,000 trip updates, 3.2 MB) decoded in process and read by a whole refresh, and pending and tick
// with arrive-by schedules on the transit routes.
if options.runs("transit") {
    let transitHome = home + "-transit"
    let large = home + "-kcm"
    defer {
        try? FileManager.default.removeItem(atPath: transitHome)
        try? FileManager.default.removeItem(atPath: large)
    }
    try? FileManager.default.createDirectory(atPath: large, withIntermediateDirectories: true)
    let zipPath = large + "/kcm.zip", feedPath = large + "/kcm.pb"
    let made = spawn("/usr/bin/env", ["python3", "Tests/Support/transit_large.py", zipPath, feedPath], environment: environment)
    if made.status != 0 {
        report("transit, a King County Metro-sized timetable", "     n/a", "needs python3", nil)
    } else {
        // The realtime feed is dated 2030-01-15 15:00 UTC (7:00 AM in Seattle).
        let morning = "2030-01-15T15:05:00Z"
        var transitEnvironment = environment
        transitEnvironment["TRAVELTIMES_HOME"] = transitHome
        let add = ["transit", "add", "kcm", "--static", zipPath, "--realtime", feedPath, "--now", morning]
        // Each run adds the feed to a store of its own.
        var fewer = options
        fewer.runs = min(options.runs, 5)
        var addTimes: [Double] = []
        var addPeak: Int?
        for run in 0...fewer.runs {
            var env = transitEnvironment
            env["TRAVELTIMES_HOME"] = "\(large)/add-\(run)"
            if run == fewer.runs {
                addPeak = peakMemory(options.binary, add, environment: env)
            } else {
                addTimes.append(spawn(options.binary, add, environment: env).seconds)
            }
            try? FileManager.default.removeItem(atPath: "\(large)/add-\(run)")
        }
        let addTime = median(addTimes)
        report("traveltimes transit add, 56,500 trips, 1,977,500 stop_times rows", milliseconds(addTime),
               String(format: "%@; target ≤ 10 s, ≤ 100 MiB", mebibytes(addPeak)), addTime <= 10 && Double(addPeak ?? .max) / 1024 <= 100)
        must(add, environment: transitEnvironment)
        let stops = [("10035", "10105"), ("10014", "10084"), ("10021", "10091"), ("10028", "10098")]
        for (index, pair) in stops.enumerated() {
            let route = ["route", "add", "bus-\(index)", "--transit", "kcm", "--from-stop", pair.0, "--to-stop", pair.1, "--walk", "5m", "--now", morning]
            if index == 0 {
                // Added and removed again, run after run.
                var times: [Double] = []
                for _ in 0..<fewer.runs {
                    times.append(spawn(options.binary, route, environment: transitEnvironment).seconds)
                    must(["route", "remove", "bus-0", "--yes"], environment: transitEnvironment)
                }
                let peak = peakMemory(options.binary, route, environment: transitEnvironment)
                must(["route", "remove", "bus-0", "--yes"], environment: transitEnvironment)
                let time = median(times)
                report("traveltimes route add --transit (one pass for the route)", milliseconds(time),
                       String(format: "%@; target ≤ 10 s, ≤ 100 MiB", mebibytes(peak)), time <= 10 && Double(peak ?? .max) / 1024 <= 100)
            }
            must(route, environment: transitEnvironment)
        }
        // A new timetable each day: every route of the feed read in the one pass that checks it.
        var refreshTimes: [Double] = []
        for day in 16...(16 + fewer.runs) {
            let sample = spawn(options.binary, ["refresh", "--quiet", "--now", "2030-01-\(day)T15:05:00Z"], environment: transitEnvironment)
            refreshTimes.append(sample.seconds)
        }
        let refreshPeak = peakMemory(options.binary, ["refresh", "--quiet", "--now", "2030-01-\(17 + fewer.runs)T15:05:00Z"], environment: transitEnvironment)
        refreshTimes.removeFirst()
        let timetableRefresh = median(refreshTimes)
        report("traveltimes refresh, a new timetable for 4 transit routes", milliseconds(timetableRefresh),
               String(format: "%@; target ≤ 10 s, ≤ 100 MiB", mebibytes(refreshPeak)),
               timetableRefresh <= 10 && Double(refreshPeak ?? .max) / 1024 <= 100)
        // Back to the morning the realtime feed is from; the timetable is then kept.
        must(["refresh", "--now", morning], environment: transitEnvironment)
        if let data = FileManager.default.contents(atPath: feedPath) {
            var decodeTimes: [Double] = []
            var updates = 0
            for _ in 0...options.runs {
                let start = DispatchTime.now().uptimeNanoseconds
                updates = (try? GTFSRealtime(decoding: data))?.tripUpdates.count ?? -1
                decodeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            decodeTimes.removeFirst()
            let decode = median(decodeTimes)
            report("GTFS-realtime decode, \(updates) trip updates (\(data.count >> 20) MB), in process", milliseconds(decode),
                   "target ≤ 50 ms", updates == 5_000 && decode <= 0.050)
        }
        let (realtimeRefresh, realtimePeak) = measure(options, options.binary, ["refresh", "--quiet", "--now", morning], environment: transitEnvironment)
        report("traveltimes refresh, that realtime feed, 4 transit routes", milliseconds(realtimeRefresh),
               String(format: "%@; target ≤ 30 MiB", mebibytes(realtimePeak)), Double(realtimePeak ?? .max) / 1024 <= 30)
        must(["favorites", "add", "bus-0", "bus-1", "bus-2", "bus-3"], environment: transitEnvironment)
        for (time, routes) in [("8:30", "bus-0"), ("9:00", "bus-1,bus-2"), ("17:45", "bus-3")] {
            must(["schedule", "add", "--arrive-by", time, "--days", "weekdays", "--route", routes, "--now", morning], environment: transitEnvironment)
        }
        for time in ["6:30", "7:30", "16:30"] {
            must(["schedule", "add", "--at", time, "--days", "weekdays", "--now", morning], environment: transitEnvironment)
        }
        for command in ["pending", "tick"] {
            let (time, ratio) = measureAgainst(options, baseline: helloRun, options.binary, [command, "--now", morning], environment: transitEnvironment)
            let peak = peakMemory(options.binary, [command, "--now", morning], environment: transitEnvironment)
            report("traveltimes \(command), 4 transit routes on that timetable (3 + 3 schedules)", milliseconds(time),
                   String(format: "%.2f× baseline, %@; target ≤ %@, ≤ 30 MiB", ratio, mebibytes(peak), command == "tick" ? "1.5×" : "2×"),
                   ratio <= (command == "tick" ? 1.5 : 2) && Double(peak ?? .max) / 1024 <= 30)
        }
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: transitHome + "/transit"))?
            .filter { $0.hasSuffix(".timetable.json") }
            .compactMap { try? FileManager.default.attributesOfItem(atPath: transitHome + "/transit/" + $0)[.size] as? Int }
        let transitState = (try? FileManager.default.attributesOfItem(atPath: transitHome + "/transit.json")[.size] as? Int) ?? 0
        print("     (kept for the 4 routes: timetables \((stored ?? []).reduce(0, +) >> 10) KiB, transit.json \(transitState >> 10) KiB)")
    }
}

// 2g. Hostile input (issue 34): the inputs of Tests/Support/transit_hostile.py — a 21 KB zip of
// 2,000 trips every minute for two days, two million trips in trips.txt, a 32 MB realtime feed of
// empty stop-time updates — and a history import of 500,000 lines, 200,000 of them for routes
// nobody knows. Each at most 100 MiB, the target for any command on hostile input (the 30 MiB of
// an everyday realtime refresh is section 2f's, on a large agency's real-sized feed).
if options.runs("hostile") {
    let hostileHome = home + "-hostile"
    let inputs = home + "-hostile-inputs"
    defer {
        try? FileManager.default.removeItem(atPath: hostileHome)
        try? FileManager.default.removeItem(atPath: inputs)
    }
    let made = spawn("/usr/bin/env", ["python3", "Tests/Support/transit_hostile.py", inputs], environment: environment)
    if made.status != 0 {
        report("hostile inputs", "     n/a", "needs python3", nil)
    } else {
        let morning = "2030-01-15T07:00:00-08:00"
        func store(_ name: String) -> [String: String] {
            var env = environment
            env["TRAVELTIMES_HOME"] = "\(hostileHome)/\(name)"
            env["TRAVELTIMES_TZ"] = "America/Los_Angeles"
            return env
        }
        func hostile(_ label: String, _ arguments: [String], environment: [String: String], target: Double) {
            let start = DispatchTime.now().uptimeNanoseconds
            let peak = peakMemory(options.binary, arguments, environment: environment)
            let time = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            report(label, milliseconds(time), String(format: "%@; target ≤ %.0f MiB", mebibytes(peak), target), Double(peak ?? .max) / 1024 <= target)
        }
        let bomb = store("freqbomb")
        must(["transit", "add", "x", "--static", "\(inputs)/freqbomb.zip", "--now", morning], environment: bomb)
        hostile("traveltimes route add --transit, 2,000 trips every minute (21 KB zip)",
                ["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--walk", "5m", "--now", morning], environment: bomb, target: 100)
        hostile("traveltimes refresh, that timetable", ["refresh", "--quiet", "--now", morning], environment: bomb, target: 100)
        let big = store("bigtrips")
        must(["transit", "add", "x", "--static", "\(inputs)/bigtrips.zip", "--now", morning], environment: big)
        hostile("traveltimes route add --transit, 2,000,000 rows in trips.txt",
                ["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--now", morning], environment: big, target: 100)
        let bombFeed = store("stubomb")
        must(["transit", "add", "metro", "--static", "Fixtures/transit/metro-gtfs.zip", "--realtime", "\(inputs)/stubomb.pb", "--now", morning], environment: bombFeed)
        must(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", morning], environment: bombFeed)
        hostile("traveltimes refresh, 32 MB of empty stop-time updates (realtime)",
                ["refresh", "--quiet", "--now", "2030-01-15T07:16:00-08:00"], environment: bombFeed, target: 100)
        let importing = store("import")
        must(["refresh", "--source", options.fixture, "--now", now], environment: importing)
        let csv = inputs + "/import.csv"
        var lines = "route,at,minutes,source,suspicious\n"
        for index in 0..<200_000 { lines += "made-up-\(index),2025-11-04T15:00:00-08:00,30,here,false\n" }
        for index in 0..<300_000 {
            let minute = index % 60, hour = index / 60 % 24, day = 1 + index / 1_440 % 28
            lines += String(format: "1,2025-10-%02dT%02d:%02d:00-07:00,%d,wsdot,false\n", day, hour, minute, 30 + index % 20)
        }
        _ = FileManager.default.createFile(atPath: csv, contents: Data(lines.utf8))
        hostile("traveltimes history import, 500,000 lines (200,000 routes unknown)", ["history", "import", csv, "--now", now], environment: importing, target: 100)
    }
}

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
