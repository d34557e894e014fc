import Basics
import Foundation
import TestThreads
import Testing

/// The new store files damaged (a fixed seed): `incidents.json` (a car route's line and the
/// Autobahn API's items) and `alerts.json` with a followed trip. Every command that meets them
/// stops with 65 naming the file, or goes on and says so; nothing hidden is printed; a refresh's
/// routes are never lost to them.
@Suite(.ownThreads) struct FollowIncidentFuzzTests {
    @Test func aDamagedIncidentsFileIsNamedAndTheRefreshGoesOn() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 48)
        let engines = try EngineServer()
        let autobahn = try SteeredServer(script: "autobahn_server.py")
        let sandbox = try IncidentTests().drive(engines, autobahn)
        try sandbox.ok(["refresh", "--now", IncidentTests.noon])
        let intact = try #require(sandbox.bytes("incidents.json"))
        let damages: [HostileInputFuzzTests.Damage] = [.flipped, .cut, .lengthened, .replaced, .spliced]
        for round in 0..<10 {
            try Sandbox.write(sandbox.path("incidents.json"), HostileInputFuzzTests.damaged(intact, damages[round % damages.count], using: &random))
            let later = "2026-10-02T12:\(40 + round):00+02:00"
            for command in [["refresh", "--all"], ["route", "drive"], ["tick"], ["status"]] {
                let outcome = try sandbox.run(command + ["--now", later])
                #expect(outcome.status == 0, "round \(round) \(command): \(outcome)")
                if command[0] == "refresh", outcome.stderr.contains("incidents not checked") {
                    #expect(outcome.stderr.contains(sandbox.path("incidents.json")), "\(outcome)")
                }
                for text in [outcome.stdout, outcome.stderr] {
                    #expect(text.unicodeScalars.allSatisfy { !DisplayText.isHidden($0) || $0 == "\n" }, "\(command): \(text)")
                }
            }
        }
        try Sandbox.write(sandbox.path("incidents.json"), Data("{\"version\":1,".utf8))
        let refresh = try sandbox.run(["refresh", "--all", "--now", "2026-10-02T13:00:00+02:00"])
        #expect(refresh.status == 0 && Whole.normal(refresh.stderr) == """
            traveltimes: warning: incidents not checked: $TMP/incidents.json: not valid JSON; the file was left untouched — fix or move it aside, then try again

            """, "\(refresh)")
        // Moved aside: the next route asked keeps its line again.
        try FileManager.default.removeItem(atPath: sandbox.path("incidents.json"))
        try sandbox.ok(["refresh", "--all", "--now", "2026-10-03T12:30:00+02:00"])
        #expect(sandbox.bytes("incidents.json") != nil)
    }

    @Test func aDamagedFollowedTripIsNamedAndNothingIsSentTwice() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 49)
        let (server, sandbox, _) = try FollowTests().leaveAlert(#"{"cancel": ["16:17"]}"#)
        defer { withExtendedLifetime(server) {} }
        let intact = try #require(sandbox.bytes("alerts.json"))
        let damages: [HostileInputFuzzTests.Damage] = [.flipped, .cut, .lengthened, .replaced, .spliced]
        for round in 0..<10 {
            try Sandbox.write(sandbox.path("alerts.json"), HostileInputFuzzTests.damaged(intact, damages[round % damages.count], using: &random))
            for command in [["tick"], ["status"], ["doctor"], ["delivered"]] {
                let outcome = try sandbox.run(command + ["--now", "2026-11-24T08:14:00-08:00"])
                #expect([0, 1, 65].contains(outcome.status), "round \(round) \(command): \(outcome)")
                if outcome.status == 65 { #expect(outcome.stderr.contains(sandbox.path("alerts.json")), "\(command): \(outcome)") }
                for text in [outcome.stdout, outcome.stderr] {
                    #expect(text.unicodeScalars.allSatisfy { !DisplayText.isHidden($0) || $0 == "\n" }, "\(command): \(text)")
                }
            }
        }
    }
}
