import Foundation
import TestThreads
import Testing

@testable import TraveltimesCLI

/// The man page's JSON OUTPUT section is the contract scripts read. Its field lists are not
/// written by hand: they are `JSONFields`, generated here from what each command actually encodes
/// (`TRAVELTIMES_RECORD_GOLDEN=1` writes the file anew and fails, for review with `git diff`). A
/// field added, renamed or dropped in an output type fails here until the file is recorded again.
@Suite(.ownThreads) struct JSONShapeTests {
    /// A value's fields: an object's keys in printed (sorted) order, a nested object or an array
    /// of objects with its own; scalars, nulls, empty arrays and arrays of scalars by name alone.
    static func shape(_ value: Any) -> String {
        if let array = value as? [Any] { return array.first.map(shape) ?? "" }
        guard let object = value as? [String: Any], !object.isEmpty else { return "" }
        let fields = object.keys.sorted().map { key -> String in
            let inner = object[key].map(shape) ?? ""
            guard !inner.isEmpty else { return key }
            return object[key] is [Any] ? "\(key): [\(inner)]" : "\(key): \(inner)"
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A store where every `--json` has something to show.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["group", "add", "commute", "--route", "1,96"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["watch", "add", "1", "--over", "10"])
        try sandbox.ok(["pause", "--from", "2026-12-01", "--until", "2026-12-02", "--reason", "away", "--now", Paths.capturedAt])
        try sandbox.ok(["tick", "--now", "2026-11-24T07:00:30-08:00"])
        try sandbox.ok(["calendar", "add", "work", "--ics", CalendarTests.calendar("work.ics"), "--route", "1", "--now", Paths.capturedAt])
        try sandbox.ok(["place", "add", "home", "47.6097,-122.3422"])
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--now", Paths.capturedAt])
        try sandbox.ok(["history", "import", HistoryTests.sampleHistory, "--now", Paths.capturedAt])
        try sandbox.ok(["export", "add", "ics", sandbox.home + "-leave.ics", "--now", Paths.capturedAt])
        try sandbox.ok(["commute", "add", "north", "--routes", "1,96"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--route", "1", "--now", Paths.capturedAt])
        return sandbox
    }

    @Test func theManualsFieldsAreWhatEachCommandEncodes() throws {
        let sandbox = try Self.sandbox()
        let schedule = try #require(try sandbox.scheduleIDs().first)
        let commands: [String: [String]] = [
            "refresh": ["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt],
            "routes": ["routes"], "route": ["route", "1"], "place list": ["place", "list"], "transit list": ["transit", "list"],
            "transit stops": ["transit", "stops", "metro", "--near", "47.6197,-122.3205"], "calendar list": ["calendar", "list"],
            "calendar events": ["calendar", "events", "work", "--now", Paths.capturedAt], "brief": ["brief"],
            "favorites list": ["favorites", "list"], "schedule list": ["schedule", "list"], "schedule show": ["schedule", "show", schedule],
            "group list": ["group", "list"], "pause list": ["pause", "list"], "pending": ["pending"], "delivered": ["delivered"],
            "notify list": ["notify", "list"], "watch list": ["watch", "list"], "history": ["history", "1", "--now", Paths.capturedAt],
            "best-time": ["best-time", "1", "--arrive-by", "9:00", "--now", Paths.capturedAt], "status": ["status"], "doctor": ["doctor"],
            "config show": ["config", "show"], "export list": ["export", "list"], "commute list": ["commute", "list"],
            "compare": ["compare", "north", "--now", Paths.capturedAt], "reliability": ["reliability", "--now", Paths.capturedAt],
        ]
        #expect(Set(commands.keys) == Set(Reference.jsonShapes.map(\.command)), "every documented --json is derived here")
        var shapes: [(String, String)] = []
        for entry in Reference.jsonShapes {
            let arguments = try #require(commands[entry.command])
            // doctor exits 1 on the sample's old data; its JSON is printed all the same.
            let outcome = try sandbox.run(arguments + ["--json"])
            #expect(outcome.status == 0 || entry.command == "doctor" && outcome.status == 1, "\(entry.command) --json: \(outcome)")
            let output = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8), options: [.fragmentsAllowed])
            #expect((output is [Any]) == entry.isArray || entry.command == "favorites list", "\(entry.command): an array or not, as documented")
            if let array = output as? [Any], entry.command != "favorites list" { #expect(!array.isEmpty, "\(entry.command): nothing to derive from") }
            shapes.append((entry.command, Self.shape(output)))
        }
        let generated = """
            // Generated by JSONShapeTests from what each command's --json encodes (`TRAVELTIMES_RECORD_GOLDEN=1
            // swift test --filter JSONShapeTests` writes it anew): never edited by hand. Keys in the order they
            // are printed; a nested object or array of objects with its own fields.
            enum JSONFields {
                static let shapes: [String: String] = [
            \(shapes.map { "        \"\($0.0)\": \"\($0.1)\"," }.joined(separator: "\n"))
                ]
            }

            """
        try GoldenOutputTests.check(
            at: Paths.root.appendingPathComponent("Sources/TraveltimesCLI/JSONFields.swift").path, generated,
            recording: ProcessInfo.processInfo.environment["TRAVELTIMES_RECORD_GOLDEN"] == "1")
    }

    @Test func theShapeOfAValueIsItsFieldsNested() {
        let value: [String: Any] = ["b": [["y": 1, "x": NSNull()]], "a": 1, "c": ["d": ["e": true]], "f": [1, 2], "g": [Any](), "h": [String: Any]()]
        #expect(Self.shape(value) == "{a, b: [{x, y}], c: {d: {e}}, f, g, h}")
        #expect(Self.shape([value]) == Self.shape(value))
        #expect(Self.shape(["1", "2"]) == "")
    }
}
