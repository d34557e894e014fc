import Foundation
import TestThreads
import Testing
@testable import TraveltimesCLI

/// The map of the code: ARCHITECTURE.md, CONTRIBUTING.md and the README name only files and
/// folders that exist, no comment points to a document that is not in the repository, no message
/// names a command that is not there, and no source file is over 400 lines.
@Suite(.ownThreads) struct MapTests {
    static let documents = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"]
    static let modules = ["Basics", "CommuteModel", "CommuteStore", "CommuteSources", "CommuteHistory", "CommuteDelivery", "CommuteCore", "CommuteNetworking", "TraveltimesCLI"]

    /// Every file under `folder` (relative to the root) whose name ends in one of `suffixes`.
    static func files(under folder: String, _ suffixes: [String]) -> [String] {
        let base = Paths.root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { name in suffixes.contains { name.hasSuffix($0) } && !name.contains("__pycache__") }
            .map { "\(folder)/\($0)" }
    }

    /// The paths a document names in backticks: `Sources/…`, `CommuteCore/Exports/…`, `Name.swift`.
    /// Code blocks are left out: they hold commands, not names.
    static func namedPaths(in text: String) -> [String] {
        let prose = text.split(separator: "```", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: "\n")
        return prose.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            guard index % 2 == 1, let word = part.split(whereSeparator: \.isWhitespace).first.map(String.init), !word.contains("<"), !word.contains("*")
            else { return nil }
            let path = word.hasSuffix("/") ? String(word.dropLast()) : word
            let top = path.split(separator: "/").first.map(String.init) ?? ""
            if ["Sources", "Tests", "Fixtures", "Scripts", ".ci"].contains(top) || modules.contains(top) && path.contains("/") { return path }
            if path.hasSuffix(".swift") || path.hasSuffix(".py"), !path.contains("/") { return path }
            return nil
        }
    }

    @Test func theDocumentsNameOnlyWhatExists() throws {
        let everything = Self.files(under: "Sources", [".swift"]) + Self.files(under: "Tests", [".swift", ".py"])
        let names = Set(everything.map { ($0 as NSString).lastPathComponent })
        var checked = 0
        for document in Self.documents {
            let text = try String(contentsOf: Paths.root.appendingPathComponent(document), encoding: .utf8)
            for path in Self.namedPaths(in: text) {
                checked += 1
                if !path.contains("/") {
                    #expect(names.contains(path) || FileManager.default.fileExists(atPath: Paths.root.appendingPathComponent(path).path), "\(document) names \(path), which no source or test file is")
                    continue
                }
                let top = path.split(separator: "/").first.map(String.init) ?? ""
                let full = Self.modules.contains(top) ? "Sources/\(path)" : path
                #expect(FileManager.default.fileExists(atPath: Paths.root.appendingPathComponent(full).path), "\(document) names \(path), which is not there")
            }
        }
        #expect(checked > 40, "the documents name \(checked) paths: the check reads them wrongly")
    }

    @Test func noCommentPointsToADocumentThatIsNotHere() throws {
        for file in Self.files(under: "Sources", [".swift"]) + Self.files(under: "Tests", [".swift", ".py"]) + Self.files(under: "Fixtures", [".md"]) {
            guard !file.hasSuffix("MapTests.swift") else { continue }
            let text = try String(contentsOf: Paths.root.appendingPathComponent(file), encoding: .utf8)
            // The product's reference notes (`reference/keyless-roads.md`, `gtfs.md`) live outside the
            // repository; another project's documents (OSRM's `docs/http.md`) are named with it.
            for match in text.matches(of: /(reference\/|shared\/|\b)(keyless-roads|keyless-transit|providers|channels|gtfs|integrations|calendar|notifications|SPEC|STYLE)\.md\b/) {
                Issue.record("\(file) points to \(match.output.0), which is not in the repository")
            }
        }
    }

    /// Messages in every layer tell the user what to run next (`traveltimes route edit ID`): each
    /// command one names is one the command line has, so a renamed command cannot leave advice
    /// that fails.
    @Test func everyCommandAMessageNamesExists() throws {
        // A group whose noun alone lists what it has (`traveltimes favorites`) is one too.
        let commands = Set(Commands.all.map(\.name) + Commands.groups)
        var named = 0
        for file in Self.files(under: "Sources", [".swift"]) {
            let text = try String(contentsOf: Paths.root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for match in line.matches(of: /`traveltimes ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/) {
                    named += 1
                    let first = String(match.output.1)
                    let both = match.output.2.map { "\(first) \($0)" }
                    #expect(both.map(commands.contains) == true || commands.contains(first), "\(file) names `traveltimes \(both ?? first)`, which is no command")
                }
            }
        }
        #expect(named > 80, "messages name \(named) commands: the check reads them wrongly")
    }

    @Test func everySourceFileIsAtMost400Lines() throws {
        let sources = Self.files(under: "Sources", [".swift"])
        #expect(sources.count > 200)
        for file in sources {
            let lines = try String(contentsOf: Paths.root.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 400, "\(file) is \(lines) lines")
        }
    }
}
