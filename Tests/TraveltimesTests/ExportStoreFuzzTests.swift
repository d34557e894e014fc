import Basics
import CommuteDelivery
import Foundation
import TestThreads
import Testing

/// A damaged `exports.json` (bytes flipped, cut, lengthened, replaced, spliced; a fixed seed):
/// every command that meets it stops with 65 naming the file, or goes on and says so (refresh's
/// warning, doctor's line); nothing hidden is printed, and the refresh itself is never lost to it.
@Suite(.ownThreads) struct ExportStoreFuzzTests {
    @Test func aDamagedExportsFileIsNamedAndNeverSilent() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 41)
        let sandbox = try Sandbox().prepared()
        let ics = sandbox.home + "-leave.ics"
        defer { try? FileManager.default.removeItem(atPath: ics) }
        try sandbox.ok(["export", "add", "ics", ics, "--now", Paths.capturedAt])
        let intact = try #require(sandbox.bytes("exports.json"))
        let damages: [HostileInputFuzzTests.Damage] = [.flipped, .cut, .lengthened, .replaced, .spliced]
        for round in 0..<10 {
            try Sandbox.write(sandbox.path("exports.json"), HostileInputFuzzTests.damaged(intact, damages[round % damages.count], using: &random))
            try? FileManager.default.removeItem(atPath: ics)
            for command in [["refresh", "--source", Paths.fixture], ["export", "list"], ["doctor"], ["tick"], ["status"]] {
                let outcome = try sandbox.run(command + (command == ["export", "list"] ? [] : ["--now", Paths.capturedAt]))
                #expect([0, 1, 65].contains(outcome.status), "round \(round) \(command): \(outcome)")
                if outcome.status == 65 { #expect(outcome.stderr.contains(sandbox.path("exports.json")), "\(command): \(outcome)") }
                if command[0] == "refresh" { #expect(outcome.status == 0 && outcome.stdout.hasPrefix("Refreshed 163 routes"), "\(outcome)") }
                for text in [outcome.stdout, outcome.stderr] {
                    #expect(text.unicodeScalars.allSatisfy { !DisplayText.isHidden($0) || $0 == "\n" }, "\(command): \(text)")
                }
            }
        }
        try Sandbox.write(sandbox.path("exports.json"), Data("{\"version\":1,".utf8))
        let refresh = try sandbox.run(["refresh", "--source", Paths.fixture, "--quiet", "--now", Paths.capturedAt])
        #expect(refresh.status == 0 && Whole.normal(refresh.stderr) == """
            traveltimes: warning: exports not sent: $TMP/exports.json: not valid JSON; the file was left untouched — fix or move it aside, then try again

            """, "\(refresh)")
        let doctor = try sandbox.run(["doctor", "--now", Paths.capturedAt])
        #expect(Whole.normal(doctor.stdout).contains("""
            warning  exports       exports.json is unreadable: $TMP/exports.json: not valid JSON; the file was left untouched — fix or move it aside, then try again
                                   → move exports.json aside: the next refresh sends everything again
            """), "\(doctor)")
        // Moved aside: the next refresh writes the calendar again.
        try FileManager.default.removeItem(atPath: sandbox.path("exports.json"))
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--quiet", "--now", Paths.capturedAt])
        #expect(FileManager.default.fileExists(atPath: ics))
    }
}
