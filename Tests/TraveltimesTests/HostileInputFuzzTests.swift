@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// The input paths issue 17 opened, fuzzed with the fixed seed of `JSONFuzzTests` (the same cases
/// on every run, in CI): install paths, crontab bytes, HERE's route sections and invisible
/// characters in names. Each property is checked over thousands of cases in the core, and a
/// sample goes through the real binary.
@Suite(.ownThreads) struct HostileInputFuzzTests {
    /// Scalars that a path, a name or a reason may hold: plain ones, and every kind that has ever
    /// caused trouble — line breaks, quotes, backslashes, `%` (cron's newline), `$`, spaces, format
    /// and bidirectional characters, separators, private use, unassigned.
    static let scalars: [Unicode.Scalar] = [
        "a", "b", "z", "0", "9", "-", "_", ".", "/", " ", "é", "ß", "漢", "😀",
        "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "'", "\"", "\\", "%", "$", "`", "*", "#", ";", "=",
        "\u{061C}", "\u{200B}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2028}", "\u{2029}", "\u{FEFF}",
        "\u{00AD}", "\u{2060}", "\u{180E}", "\u{E0001}", "\u{0600}", "\u{E000}", "\u{0378}", "\u{10FFFF}",
    ]

    static func text(_ random: inout SeededRandom, length: ClosedRange<Int>) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: length, using: &random) {
            // Mostly plain letters, so that many cases are accepted and go on to the next check.
            let plain = Int.random(in: 0..<3, using: &random) > 0
            scalars.append(plain ? plainScalar(Int.random(in: 0..<3, using: &random)) : Self.scalars.randomElement(using: &random) ?? "a")
        }
        return String(scalars)
    }

    private static func plainScalar(_ index: Int) -> Unicode.Scalar { ["a", "x", "7"][index] }

    // MARK: Install paths

    /// Any store and binary path: refused with the character named, or written so that systemd's
    /// units and the cron block read back as exactly those paths, one line per directive or job.
    @Test func everyInstallPathIsRefusedOrReadsBack() {
        var random = SeededRandom(seed: JSONFuzzTests.seed)
        var accepted = (systemd: 0, cron: 0)
        for _ in 0..<JSONFuzzTests.count {
            let binary = "/" + Self.text(&random, length: 1...12) + "/traveltimes"
            let store = "/" + Self.text(&random, length: 1...16)
            for forSystemd in [true, false] {
                let refusals = [
                    Installation.problem(withPath: binary, isExecutable: true, forSystemd: forSystemd),
                    Installation.problem(withPath: store, isExecutable: false, forSystemd: forSystemd),
                ].compactMap { $0 }
                for refusal in refusals {
                    #expect(refusal.hasPrefix("it holds ") && refusal.contains("(U+"), "\(refusal)")
                    #expect(DisplayText.line(refusal) == refusal, "a refusal shows no invisible character: \(refusal)")
                }
                guard refusals.isEmpty else { continue }
                if forSystemd {
                    accepted.systemd += 1
                    let units = Installation.systemdUnits(binary: binary, store: store, refreshEvery: .standard)
                    #expect(Installation.unitsReadBack(units, binary: binary, store: store), "\(binary.debugDescription) \(store.debugDescription)")
                } else {
                    accepted.cron += 1
                    let block = Installation.cronBlock(binary: binary, store: store, refreshEvery: .standard)
                    #expect(Installation.cronBlockReadsBack(block, binary: binary, store: store), "\(binary.debugDescription) \(store.debugDescription)")
                    #expect(block.allSatisfy { !$0.unicodeScalars.contains("\n") && !$0.unicodeScalars.contains("\r") })
                }
            }
        }
        #expect(accepted.systemd > JSONFuzzTests.count / 20 && accepted.cron > JSONFuzzTests.count / 20, "\(accepted)")
    }

    /// A sample through the binary: `install cron` with a hostile store path exits 0 (and the
    /// stand-in crontab then holds a block that names that store) or 64 naming the character.
    @Test func installCronWithHostileStorePaths() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 1)
        let sandbox = Sandbox()
        let programs = try StandInPrograms(sandbox)
        func table() -> Data { FileManager.default.contents(atPath: programs.crontab) ?? Data() }
        for _ in 0..<24 {
            let store = sandbox.path("s-" + Self.text(&random, length: 1...10).replacingOccurrences(of: "/", with: "_"))
            let outcome = try sandbox.run(["install", "cron"], environment: ["TRAVELTIMES_HOME": store])
            #expect([0, 64].contains(outcome.status), "\(store.debugDescription): \(outcome)")
            #expect(DisplayText.line(outcome.stderr.replacingOccurrences(of: "\n", with: " ")) == outcome.stderr.replacingOccurrences(of: "\n", with: " "),
                "nothing invisible on the terminal: \(outcome.stderr.debugDescription)")
            if outcome.status == 64 {
                #expect(outcome.stderr.contains("(U+"), "\(outcome)")
            } else {
                #expect(Installation.cronState(of: Installation.byteString(table())) != .absent)
                #expect(try sandbox.run(["uninstall", "cron", "--yes"], environment: ["TRAVELTIMES_HOME": store]).status == 0)
            }
            #expect(table().isEmpty, "every install was undone, or never made: \(String(decoding: table(), as: UTF8.self))")
        }
    }

    // MARK: Crontab bytes

    /// Any crontab, of any bytes: installing and then uninstalling gives back every byte, and
    /// installing twice changes nothing the second time.
    @Test func everyCrontabByteSurvivesInstallAndUninstall() {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 2)
        let pieces: [[UInt8]] = [
            Array("MAILTO=me@example.com".utf8), Array("0 5 * * * backup".utf8), Array("# caf".utf8) + [0xE9], [0xFF, 0xFE],
            [0xC3, 0xA9], [0xED, 0xA0, 0x80], [0x0D], [0x0A], [0x0D, 0x0A], [0x00], [0x09], Array(" ".utf8), Array("%".utf8),
            Array("# BEGIN traveltimes-other".utf8), Array("# END traveltimes".utf8), Array("# BEGIN".utf8), [0xE2, 0x80, 0xAE],
        ]
        let block = Installation.cronBlock(binary: "/usr/local/bin/traveltimes", store: "/home/me/.local/state/traveltimes", refreshEvery: .standard)
        var checked = 0
        for _ in 0..<JSONFuzzTests.count {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) { bytes += pieces.randomElement(using: &random) ?? [] }
            let table = Installation.byteString(Data(bytes))
            guard let installed = Installation.merging(block, into: table) else {
                #expect(Installation.cronState(of: table) == .foreign)
                continue
            }
            checked += 1
            #expect(Installation.merging(block, into: installed) == installed, "installing again changes nothing: \(bytes)")
            guard Installation.cronState(of: table) == .absent else { continue }
            let removed = Installation.removingBlock(from: installed)
            #expect(removed.map { Installation.bytes(of: $0) } == Data(bytes), "\(Data(bytes) as NSData)")
        }
        #expect(checked > JSONFuzzTests.count / 2, "\(checked)")
    }

    // MARK: Provider sections

    /// HERE's answers with any sections: a measurement only when every section's every field is a
    /// plausible number (then the sums), otherwise a fault naming the field — never a huge or
    /// negative sum made plausible by its neighbours.
    @Test func everyHERESectionIsCheckedOnItsOwn() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 3)
        let values: [String] = ["900", "1", "0", "-300", "600", "1e308", "-1e308", "86400", "86401", "12.5", "\"900\"", "null", "true", "[]"]
        let lengths: [String] = ["8000", "12000", "0", "-5", "1e308", "null", "\"8000\""]
        // Each field as the providers document it: a number in bounds; `typicalDuration` and
        // `length` may be absent (null).
        func number(_ text: String, in range: ClosedRange<Double>, optional: Bool) -> (ok: Bool, value: Double) {
            if text == "null" { return (optional, 0) }
            guard !text.hasPrefix("\""), text != "true", text != "[]", let value = Double(text) else { return (false, 0) }
            return (range.contains(value), value)
        }
        let day = Double(Route.longestTravelMinutes * 60)
        var measured = 0
        for _ in 0..<JSONFuzzTests.count {
            var sections: [String] = []
            var allValid = true
            var total = 0.0
            // The route's length: nil once a section has none (then no length is known).
            var metres: Double? = 0
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let seconds = values.randomElement(using: &random) ?? "1"
                let typical = values.randomElement(using: &random) ?? "1"
                let length = lengths.randomElement(using: &random) ?? "1"
                sections.append(#"{"summary":{"duration":\#(seconds),"length":\#(length),"typicalDuration":\#(typical)}}"#)
                let duration = number(seconds, in: 0...day, optional: false)
                allValid = allValid && duration.ok && number(typical, in: 0...day, optional: true).ok
                    && number(length, in: 0...(Route.longestDistanceMiles * 1_609.344), optional: true).ok
                total += duration.value
                metres = length == "null" ? nil : metres.map { $0 + number(length, in: 0...1e300, optional: true).value }
            }
            let body = #"{"routes":[{"sections":[\#(sections.joined(separator: ","))]}]}"#
            // A route of no length that takes time routed nowhere: not an answer either.
            let expected = allValid && total > 0 && total <= day && (metres.map { $0 >= 1 } ?? true)
            switch RoutingAPI.interpret(HTTPResponse(status: 200, headers: [:], body: Data(body.utf8)), from: .here) {
            case .success(let measurement):
                measured += 1
                #expect(expected, "a section out of bounds, or a total no road takes, was accepted: \(body)")
                #expect(measurement.currentMinutes == max(1, Int((total / 60).rounded())), "\(body) → \(measurement)")
            case .failure(.badAnswer(let reason)):
                #expect(!expected, "a plausible answer was refused (\(reason)): \(body)")
                #expect(DisplayText.line(reason) == reason && reason.count <= 260)
            case .failure(let fault):
                Issue.record("a 200 with sections is a measurement or a bad answer, not \(fault): \(body)")
            }
        }
        #expect(measured > JSONFuzzTests.count / 50, "some answers are plausible: \(measured)")
    }

    // MARK: Invisible characters

    /// Any text: `DisplayText.line` leaves nothing hidden, and leaves clean text as it was.
    @Test func noHiddenCharacterSurvivesDisplay() {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 4)
        for _ in 0..<JSONFuzzTests.count {
            let text = Self.text(&random, length: 0...24)
            let shown = DisplayText.line(text)
            #expect(!shown.unicodeScalars.contains(where: DisplayText.isHidden), "\(text.debugDescription) → \(shown.debugDescription)")
            if !text.unicodeScalars.contains(where: DisplayText.isHidden) { #expect(shown == text) }
        }
    }

    /// A sample through the binary: group names and pause reasons with any characters are refused
    /// (exit 64) or saved, and then every listing — text and JSON — shows no hidden character.
    @Test func namesWithAnyCharacterAreRefusedOrShownClean() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 5)
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        var saved = 0
        for index in 0..<20 {
            let name = Self.text(&random, length: 1...12)
            let group = try sandbox.run(["group", "add", name, "--route", "1"])
            let pause = try sandbox.run(["pause", "--from", "2026-12-0\(index % 9 + 1)", "--reason", name, "--now", "2026-11-24T09:00:00"])
            for outcome in [group, pause] {
                #expect([0, 64].contains(outcome.status), "\(name.debugDescription): \(outcome)")
                if outcome.status == 0 { saved += 1 }
            }
        }
        #expect(saved > 0)
        for command in [["group", "list"], ["pause", "list"], ["group", "list", "--json"], ["pause", "list", "--json"], ["status"]] {
            let outcome = try sandbox.ok(command, environment: ["TRAVELTIMES_NOW": "2026-11-24T09:00:00"])
            let hidden = outcome.stdout.unicodeScalars.filter { DisplayText.isHidden($0) && $0 != "\n" }
            #expect(hidden.isEmpty, "\(command): \(hidden.map { String(format: "U+%04X", $0.value) })")
        }
    }

    // MARK: Damaged files

    /// The ways a file is damaged: bytes flipped, cut short, lengthened with noise, replaced by
    /// noise whole, or a stretch of it copied over another (lengths and offsets that point elsewhere).
    enum Damage { case flipped, cut, lengthened, replaced, spliced }

    static func damaged(_ intact: Data, _ damage: Damage, using random: inout SeededRandom) -> Data {
        var bytes = intact
        func noise(_ count: ClosedRange<Int>) -> Data {
            Data((0..<Int.random(in: count, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        guard !bytes.isEmpty else { return noise(0...400) }
        switch damage {
        case .flipped:
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case .cut: bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))
        case .lengthened: bytes += noise(1...300)
        case .replaced: bytes = noise(0...400)
        case .spliced:
            let length = Int.random(in: 1...min(200, bytes.count), using: &random)
            let from = Int.random(in: 0...(bytes.count - length), using: &random)
            let to = Int.random(in: 0...(bytes.count - length), using: &random)
            bytes.replaceSubrange(to..<(to + length), with: intact[from..<(from + length)])
        }
        return bytes
    }

    // MARK: History files and imports

    /// History files with bytes flipped, cut short, lengthened or replaced, and CSV lines of any
    /// characters: every command that reads them answers (0, or 65 naming the file, or 65 for the
    /// CSV line) — never a crash — and what it prints holds no hidden character.
    @Test func damagedHistoryFilesAndHostileImportsNeverCrash() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 20)
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        try sandbox.ok(["history", "import", HistoryTests.sampleHistory])
        let path = sandbox.path("history/1.tth")
        let intact = try #require(sandbox.bytes("history/1.tth"))
        for round in 0..<24 {
            let bytes = Self.damaged(intact, [Damage.flipped, .cut, .lengthened, .replaced][round % 4], using: &random)
            try Sandbox.write(path, bytes)
            for command in [
                ["history", "1", "--now", "2025-11-04T16:05:00-08:00"], ["history", "1", "--json"], ["history", "export", "--csv"],
                ["best-time", "1", "--arrive-by", "9:00"], ["refresh", "--source", Paths.fixture, "--now", "2025-11-04T16:05:00-08:00"],
                ["tick", "--now", "2025-11-05T07:00:30-08:00"],
            ] {
                let outcome = try sandbox.run(command)
                #expect([0, 65].contains(outcome.status), "round \(round) \(command): \(outcome)")
                if outcome.status == 65 { #expect(Whole.normal(outcome.stderr) == "traveltimes: $TMP/history/1.tth: wrong shape: it is not a traveltimes history file; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n", "\(outcome)") }
                let hidden = (outcome.stdout + outcome.stderr).unicodeScalars.filter { DisplayText.isHidden($0) && $0 != "\n" }
                #expect(hidden.isEmpty, "round \(round) \(command)")
            }
        }
        for _ in 0..<40 {
            let line = Self.text(&random, length: 0...60)
            let file = sandbox.home + "-fuzz.csv"
            try Sandbox.write(file, Data(("route,at,minutes,source,suspicious\n" + line + "\n").utf8))
            let outcome = try sandbox.run(["history", "import", file])
            #expect([0, 65].contains(outcome.status), "\(line.debugDescription): \(outcome)")
            #expect(!outcome.stderr.unicodeScalars.contains { DisplayText.isHidden($0) && $0 != "\n" }, "\(line.debugDescription)")
        }
    }

    // MARK: Transit feeds and their state

    /// The sample agency's timetable and realtime feed with bytes flipped, cut short, lengthened or
    /// spliced: the core reads each (thousands of cases) to an answer or a reason — never a crash,
    /// never a list past its bound — and a sample goes through the binary: `transit add` of a
    /// damaged zip saves nothing, a refresh that meets a damaged realtime feed keeps the route's
    /// departures (exit 0 or 75), and damaged `transit.json` or timetable files are named (65).
    @Test func damagedTimetablesRealtimeFeedsAndTransitStateNeverCrash() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 21)
        func damaged(_ intact: Data, _ round: Int) -> Data {
            Self.damaged(intact, [Damage.flipped, .cut, .spliced, .lengthened][round % 4], using: &random)
        }
        let zip = try Data(contentsOf: URL(fileURLWithPath: Paths.transit("metro-gtfs.zip")))
        let feed = try Data(contentsOf: URL(fileURLWithPath: Paths.transit("realtime-0730.pb")))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("transit-fuzz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let requests = [TransitTimetable.Request(from: "CH", to: "2301"), TransitTimetable.Request(from: "CH", to: "2301", line: "545")]
        var read = 0
        for round in 0..<400 {
            let path = "\(scratch)/\(round).zip"
            try damaged(zip, round).write(to: URL(fileURLWithPath: path))
            do {
                let reading = try TransitTimetable.read(try ZipArchive(path: path), requests: requests, checkingEverything: true)
                read += 1
                for case .success(let timetable) in reading.timetables {
                    #expect(timetable.trips.count <= TransitTimetable.largestTripCount)
                }
            } catch {
                #expect(error is ZipProblem || error is GTFSTable.Problem, "round \(round): \(error)")
            }
            unlink(path)
        }
        // Some damage (to a name's case, a comment, an unread entry) leaves the feed readable.
        #expect(read > 0 && read < 400, "\(read) of 400 read")
        for round in 0..<4_000 {
            guard let decoded = try? GTFSRealtime(decoding: damaged(feed, round)) else { continue }
            #expect(decoded.tripUpdates.count + decoded.alerts.count <= GTFSRealtime.largestList)
            #expect(decoded.tripUpdates.allSatisfy { $0.stopTimeUpdates.count <= GTFSRealtime.largestInner })
            #expect(decoded.timestamp.map { (0...253_402_300_799).contains($0) } ?? true)
        }

        // Through the binary.
        let sandbox = Sandbox(runner: .binary)
        func calm(_ outcome: Outcome, _ what: String) {
            let hidden = (outcome.stdout + outcome.stderr).unicodeScalars.filter { DisplayText.isHidden($0) && $0 != "\n" }
            #expect(hidden.isEmpty, "\(what)")
        }
        for round in 0..<8 {
            let path = "\(scratch)/add-\(round).zip"
            try damaged(zip, round).write(to: URL(fileURLWithPath: path))
            let outcome = try sandbox.run(["transit", "add", "bad", "--static", path, "--now", TransitTests.at("07:00")])
            #expect(outcome.status == 1 && outcome.stderr.contains("feed bad was not added") || outcome.status == 0, "round \(round): \(outcome)")
            calm(outcome, "add round \(round)")
            if outcome.status == 0 { try sandbox.ok(["transit", "remove", "bad", "--yes"]) }
        }
        #expect(try sandbox.store.configuration().transitFeeds == nil)
        let realtime = "\(scratch)/tripupdates.pb"
        try feed.write(to: URL(fileURLWithPath: realtime))
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--realtime", realtime, "--now", TransitTests.at("07:00")])
        try sandbox.ok(["route", "add", "commute", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["favorites", "add", "commute"])
        try sandbox.ok(["schedule", "add", "--route", "commute", "--arrive-by", "8:45", "--days", "weekdays", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["refresh", "--now", TransitTests.at("07:30")])
        for round in 0..<8 {
            try damaged(feed, round).write(to: URL(fileURLWithPath: realtime))
            let refreshed = try sandbox.run(["refresh", "--now", TransitTests.at("07:31")])
            #expect([0, 75].contains(refreshed.status), "round \(round): \(refreshed)")
            calm(refreshed, "refresh round \(round)")
            let card = try sandbox.run(["route", "commute", "--json", "--now", TransitTests.at("07:31")])
            #expect(card.status == 0, "round \(round): \(card)")
            let departures = (try? JSONSerialization.jsonObject(with: Data(card.stdout.utf8)) as? [String: Any])?["departures"] as? [Any]
            #expect(departures?.isEmpty == false, "round \(round): the timetable's departures are kept")
        }
        try feed.write(to: URL(fileURLWithPath: realtime))
        try sandbox.ok(["refresh", "--now", TransitTests.at("07:32")])
        for (file, round) in [("transit.json", 0), ("transit.json", 1), ("transit.json", 2), ("transit/commute.timetable.json", 0),
                              ("transit/commute.timetable.json", 3), ("transit/metro.zip", 1)] {
            let intact = try #require(sandbox.bytes(file))
            try Sandbox.write(sandbox.path(file), damaged(intact, round))
            for command in [["routes"], ["route", "commute"], ["pending"], ["tick"], ["refresh"], ["transit", "list"]] {
                let outcome = try sandbox.run(command + ["--now", TransitTests.at("07:33")])
                #expect([0, 65, 75].contains(outcome.status), "\(file) round \(round) \(command): \(outcome)")
                if outcome.status == 65 { #expect(outcome.stderr.contains(file), "\(file) \(command): \(outcome)") }
                calm(outcome, "\(file) \(command)")
            }
            try Sandbox.write(sandbox.path(file), intact)
        }
    }
}
