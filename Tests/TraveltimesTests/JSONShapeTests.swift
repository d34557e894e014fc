import Foundation
import Testing

/// The man page's JSON OUTPUT section is the contract scripts read. Each shape's fields are checked
/// against what the binary actually encodes, so a field added, renamed or dropped in an output
/// type fails here until the page says so.
@Suite struct JSONShapeTests {
    /// `{a, b: {c, d}, e}` → [a, b, e]: the first object's fields, at its own level.
    static func topLevelFields(_ shape: String) -> [String] {
        guard let open = shape.firstIndex(of: "{") else { return [] }
        var fields: [String] = []
        var depth = 0
        var word = ""
        var inWord = true
        for character in shape[open...] {
            switch character {
            case "{", "[", "(":
                depth += 1
                if depth == 2, inWord, !word.isEmpty { fields.append(word) }
                if depth == 2 { word = ""; inWord = false }
            case "}", "]", ")":
                if depth == 1, inWord, !word.isEmpty { fields.append(word) }
                depth -= 1
                if depth == 0 { return fields }
            case "," where depth == 1:
                if inWord, !word.isEmpty { fields.append(word) }
                word = ""
                inWord = true
            case ":" where depth == 1:
                if inWord, !word.isEmpty { fields.append(word) }
                word = ""
                inWord = false
            default:
                if depth == 1, inWord, character.isLetter || character.isNumber { word.append(character) }
            }
        }
        return fields
    }

    /// The shapes as the man page prints them, by command.
    static func shapes(_ sandbox: Sandbox) throws -> [String: String] {
        let page = try sandbox.ok(["manpage"]).stdout
        let lines = page.components(separatedBy: "\n")
        var shapes: [String: String] = [:]
        for (index, line) in lines.enumerated() where line.hasPrefix(".B \"") && line.hasSuffix(#" \-\-json""#) && index + 1 < lines.count {
            let command = String(line.dropFirst(4).dropLast(#" \-\-json""#.count))
            shapes[command] = lines[index + 1].replacingOccurrences(of: #"\-"#, with: "-")
        }
        return shapes
    }

    @Test func everyDocumentedFieldIsEncodedAndNothingElse() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["group", "add", "commute", "--route", "1,96"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["watch", "add", "1", "--over", "10"])
        try sandbox.ok(["pause", "--from", "2026-12-01", "--until", "2026-12-02", "--reason", "away", "--now", Paths.capturedAt])
        try sandbox.ok(["tick", "--now", "2026-11-24T07:00:30-08:00"])
        try sandbox.ok(["calendar", "add", "work", "--ics", CalendarTests.calendar("work.ics"), "--route", "1", "--now", Paths.capturedAt])
        let shapes = try Self.shapes(sandbox)
        let commands: [(name: String, arguments: [String])] = [
            ("refresh", ["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt]),
            ("routes", ["routes"]), ("brief", ["brief"]), ("schedule list", ["schedule", "list"]),
            ("group list", ["group", "list"]), ("pause list", ["pause", "list"]), ("pending", ["pending"]),
            ("delivered", ["delivered"]), ("notify list", ["notify", "list"]), ("watch list", ["watch", "list"]),
            ("status", ["status"]), ("doctor", ["doctor"]), ("config show", ["config", "show"]),
            ("calendar list", ["calendar", "list"]), ("calendar events", ["calendar", "events", "work", "--now", Paths.capturedAt]),
        ]
        for (name, arguments) in commands {
            let shape = try #require(shapes[name], "the man page has no shape for \(name) --json")
            let documented = Self.topLevelFields(shape)
            #expect(!documented.isEmpty, "\(name): no fields read from \(shape)")
            // doctor exits 1 on the sample's old data; its JSON is printed all the same.
            let outcome = try sandbox.run(arguments + ["--json"])
            #expect(outcome.status == 0 || name == "doctor" && outcome.status == 1, "\(name) --json: \(outcome)")
            let output = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
            if let array = output as? [Any] { #expect(!array.isEmpty, "\(name) --json printed an empty array: nothing to check") }
            let object = (output as? [Any])?.first ?? output
            let encoded = try #require(object as? [String: Any], "\(name) --json printed no object")
            #expect(Set(documented) == Set(encoded.keys), "\(name): documented \(documented.sorted()), encoded \(encoded.keys.sorted())")
        }
    }

    @Test func theShapeReaderReadsOneLevel() {
        #expect(Self.topLevelFields("{a, b: {c, d}, e: [{f}], g}; h") == ["a", "b", "e", "g"])
        #expect(Self.topLevelFields("an array of {id, name}") == ["id", "name"])
        #expect(Self.topLevelFields("an array of route IDs") == [])
    }
}
