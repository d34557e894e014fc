import Foundation
import TestThreads
import Testing

@_spi(Store) import CommuteCore
@testable import TraveltimesCLI

/// The README's tables of providers, notifiers and exports are the registries' own
/// (`Reference.readmeTables`): a provider, notifier or export added in its file shows there, and
/// the test fails until the README says it. `TRAVELTIMES_RECORD_README=1` writes them in, for
/// review with `git diff`; the run that writes still fails.
@Suite(.ownThreads) struct ReadmeTablesTests {
    static let start = "<!-- generated: the registries' tables (ReadmeTablesTests; TRAVELTIMES_RECORD_README=1 rewrites) -->\n"
    static let end = "<!-- end of the generated tables -->"

    @Test func theReadmesTablesAreTheRegistries() throws {
        let path = Paths.root.appendingPathComponent("README.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let head = try #require(text.range(of: Self.start), "README.md has no start marker")
        let tail = try #require(text.range(of: Self.end, range: head.upperBound..<text.endIndex), "README.md has no end marker")
        let shown = String(text[head.upperBound..<tail.lowerBound])
        let made = Reference.readmeTables + "\n"
        if shown != made, ProcessInfo.processInfo.environment["TRAVELTIMES_RECORD_README"] == "1" {
            try (String(text[..<head.upperBound]) + made + String(text[tail.lowerBound...])).write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(shown == made, "README.md's tables differ from the registries':\n\(made)")
        // Every provider, notifier and export is in them.
        for provider in RouteProvider.allCases { #expect(made.contains("| `\(provider.rawValue)` (\(provider.displayName)) |")) }
        for kind in ExportTarget.Kind.allCases { #expect(made.contains("| `\(kind.rawValue)` |")) }
    }
}
