@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing
@_spi(Store) import CommuteStore

/// A command that changes the schedules does all of its change or none of it, and a plan older
/// than the schedules (a command killed in between) is made again by the next command that plans.
@Suite(.ownThreads) struct WholeOrNoneTests {
    /// Every store file's bytes, lock files left out.
    func snapshot(_ sandbox: Sandbox) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: sandbox.home) where !name.hasPrefix(".") {
            files[name] = sandbox.bytes(name)
        }
        return files
    }

    static let damages: [(file: String, bytes: String, reason: String)] = [
        ("routes.json", "{\"version\": 1, \"routes\": [tru", "not valid JSON"),
        ("pending.json", "{\"version\": 1, \"cap\": 64", "not valid JSON"),
        ("pending.json", "{\"version\": 7}", "unknown version 7"),
        ("routes.json", "", "the file is empty"),
    ]

    @Test(arguments: [
        ["schedule", "add", "--at", "9:00", "--now", Paths.capturedAt],
        ["schedule", "edit", "PREFIX", "--at", "9:15", "--now", Paths.capturedAt],
        ["schedule", "disable", "PREFIX", "--now", Paths.capturedAt],
        ["schedule", "remove", "PREFIX", "--yes", "--now", Paths.capturedAt],
        ["pause", "--from", "2025-11-05", "--until", "2025-11-06", "--now", Paths.capturedAt],
        ["favorites", "remove", "96", "--yes", "--now", Paths.capturedAt],
    ])
    func aDamagedFileItNeedsLeavesEveryFileAsItWas(_ command: [String]) throws {
        for damage in Self.damages {
            let sandbox = try Sandbox().prepared()
            let prefix = String(try #require(try sandbox.scheduleIDs().first).prefix(8))
            try Sandbox.write(sandbox.path(damage.file), Data(damage.bytes.utf8))
            let before = try snapshot(sandbox)
            let arguments = command.map { $0 == "PREFIX" ? prefix : $0 }
            // Twice: a second attempt finds the same store, not a half-changed one.
            for _ in 0..<2 {
                let outcome = try sandbox.run(arguments)
                #expect(outcome.status == 65, "\(arguments) with \(damage.file) '\(damage.bytes)': \(outcome)")
                #expect(
                    outcome.stderr.contains("\(sandbox.path(damage.file)): \(damage.reason)"), "\(arguments): \(outcome)")
                #expect(outcome.stderr.contains("nothing was changed"), "\(arguments): \(outcome)")
                #expect(outcome.stdout.isEmpty, "\(arguments): \(outcome)")
                #expect(try snapshot(sandbox) == before, "\(arguments) with \(damage.file) '\(damage.bytes)' changed the store")
            }
        }
    }

    @Test func aCustomRouteIsNotRemovedHalfway() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["route", "add", "home-work", "--from", "47.6,-122.3", "--to", "47.7,-122.2", "--provider", "here", "--no-check"])
        try sandbox.ok(["favorites", "add", "home-work"])
        try sandbox.ok(["schedule", "add", "--at", "9:00", "--route", "home-work", "--now", Paths.capturedAt])
        try Sandbox.write(sandbox.path("pending.json"), Data("{\"version\": 1, \"cap\": 64".utf8))
        let before = try snapshot(sandbox)
        let outcome = try sandbox.run(["route", "remove", "home-work", "--yes", "--now", Paths.capturedAt])
        #expect(outcome.status == 65, "\(outcome)")
        #expect(try snapshot(sandbox) == before)
    }

    /// The state a `schedule add` killed between saving the schedule and planning it leaves: the
    /// schedule saved, the plan as it was.
    func killedAfterSaving(_ sandbox: Sandbox, at time: TimeOfDay) throws -> UUID {
        let id = UUID()
        try sandbox.store.updateSchedules { book in
            book.schedules.append(
                Schedule(
                    id: id, routeIDs: ["1"], days: Set(Weekday.allCases), hour: time.hour, minute: time.minute, isEnabled: true,
                    createdAt: try #require(ISO8601.parse(Paths.capturedAt)?.instant)))
        }
        return id
    }

    @Test func tickReplansAPlanOlderThanTheSchedulesAndSendsTheAlert() throws {
        let sandbox = try Sandbox().prepared()
        let id = try killedAfterSaving(sandbox, at: TimeOfDay(hour: 16, minute: 45))
        #expect(try sandbox.store.pending().requests.allSatisfy { $0.scheduleID != id }, "the plan does not know it yet")
        let tick = try sandbox.ok(["tick", "--now", "2025-11-04T16:45:20-08:00"])
        #expect(tick.stdout == "Commute at 4:45 PM (Every day)\nEverett-Seattle: 34 min (-11 min, CLEAR)\n\n", "\(tick)")
        #expect(try sandbox.store.pending().requests.contains { $0.scheduleID == id })
    }

    @Test func pendingShowsASchedulePlannedByNoOne() throws {
        let sandbox = try Sandbox().prepared()
        let id = try killedAfterSaving(sandbox, at: TimeOfDay(hour: 21, minute: 5))
        let pending = try sandbox.ok(["pending", "--json", "--now", Paths.capturedAt])
        #expect(pending.stdout.contains(id.uuidString.lowercased()), "\(pending)")
        // The plan is current now: the next tick with nothing due reads no more than the plan.
        let plan = sandbox.bytes("pending.json")
        try sandbox.ok(["tick", "--now", "2025-11-04T16:01:00-08:00"])
        #expect(sandbox.bytes("pending.json") == plan)
    }

    @Test func aKilledScheduleAddNeverLeavesASilentSchedule() throws {
        // Kill at moments spread over the command's life; whatever survives, a tick at its time sends it.
        for delay in stride(from: 0, through: 45_000, by: 5_000) {
            let sandbox = try Sandbox().prepared()
            let running = try sandbox.start(["schedule", "add", "--at", "16:50", "--days", "tue", "--route", "4", "--now", Paths.capturedAt])
            usleep(useconds_t(delay))
            kill(running.process.processIdentifier, SIGKILL)
            _ = try running.wait()
            let saved = try sandbox.store.schedules().schedules.contains { $0.hour == 16 && $0.minute == 50 }
            let tick = try sandbox.ok(["tick", "--now", "2025-11-04T16:50:10-08:00"])
            #expect(tick.stdout.contains("Commute at 4:50 PM (Tue)") == saved, "killed after \(delay) µs: saved \(saved), \(tick)")
        }
    }
}
