import Basics
import Foundation
import TestThreads
import Testing

/// Disruption on a car route: Germany's Autobahn API against its loopback stand-in
/// (`Tests/Support/autobahn_server.py`, serving real recorded answers: `Fixtures/real/autobahn/`),
/// the route's line and motorway from the OSRM stand-in.
@Suite(.ownThreads) struct IncidentTests {
    /// 2 October 2026, 12:30 in Germany: the recorded jam between Heimsheim and Pforzheim-Nord
    /// began at 12:01.
    static let noon = "2026-10-02T12:30:00+02:00"

    /// A drive along the A8 past Heimsheim (OSRM's line: straight between its ends, on the A 8).
    func drive(_ engines: EngineServer, _ autobahn: SteeredServer) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(engines.environment) { _, new in new }
        sandbox.environment["TRAVELTIMES_AUTOBAHN_URL"] = autobahn.base
        sandbox.environment["TRAVELTIMES_TZ"] = "Europe/Berlin"
        try engines.steer(#"{"ref": "A 8;A 81"}"#)
        try sandbox.ok(["config", "set", "contact", "me@example.org"])
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "48.8309,8.95", "--to", "48.8509,8.7", "--now", Self.noon])
        try sandbox.ok(["favorites", "add", "drive"])
        return sandbox
    }

    @Test func anAutobahnWarningNearACarRouteShowsOnItAsANotice() throws {
        let engines = try EngineServer()
        let autobahn = try SteeredServer(script: "autobahn_server.py")
        let sandbox = try drive(engines, autobahn)
        #expect(try sandbox.ok(["refresh", "--now", Self.noon]).stderr == "")
        // The motorways the line uses, warnings and closures each; named as the public services are.
        let asked = autobahn.entries().map { "\($0["path"] ?? "") \($0["userAgent"] ?? "")" }
        #expect(asked == [
            "/A8/services/warning traveltimes/0.4.0 (+mailto:me@example.org)", "/A8/services/closure traveltimes/0.4.0 (+mailto:me@example.org)",
            "/A81/services/warning traveltimes/0.4.0 (+mailto:me@example.org)", "/A81/services/closure traveltimes/0.4.0 (+mailto:me@example.org)",
        ])
        // The warning on its way is shown, as a notice; the closures near Leonberg and Munich are
        // not on it, and those near Munich are for later.
        let notice = "  Incident: A8 | Heimsheim - Pforzheim-Nord (Stuttgart -> Karlsruhe): a warning (Autobahn GmbH notice, not a delay figure)"
        let shown = try sandbox.ok(["route", "drive", "--now", Self.noon]).stdout.components(separatedBy: "\n")
        #expect(shown.filter { $0.contains("Incident") } == [notice], "\(shown)")
        // The alert carries it, after the route's line.
        try sandbox.ok(["schedule", "add", "--at", "12:45", "--route", "drive", "--days", "fri", "--now", Self.noon])
        let alert = try sandbox.ok(["tick", "--now", "2026-10-02T12:45:00+02:00"]).stdout
        #expect(alert.components(separatedBy: "\n").dropFirst().prefix(2) == [
            "48.8309,8.95 → 48.8509,8.7 (OSRM): 29 min (free-flow estimate from OSRM, no live traffic)", String(notice.dropFirst(2)),
        ], "\(alert)")
        // `doctor` says what the feed is asked about, and when.
        let doctor = try sandbox.run(["doctor", "--now", Self.noon]).stdout.components(separatedBy: "\n")
        #expect(doctor.filter { $0.contains("incidents") }.map { $0.replacingOccurrences(of: #" {2,}"#, with: " | ", options: .regularExpression) } == [
            "ok | incidents | 1 car route with a line; the Autobahn API's warnings and closures on A8, A81, asked 12:30 PM",
        ], "\(doctor)")
        // Asked again only after 5 minutes.
        try sandbox.ok(["refresh", "--now", "2026-10-02T12:33:00+02:00"])
        #expect(autobahn.entries().count == 4)
        try sandbox.ok(["refresh", "--now", "2026-10-02T12:36:00+02:00"])
        #expect(autobahn.entries().count == 8)
    }

    @Test func aWarningElsewhereOrTheFeedDownLeavesTheRouteAsItWas() throws {
        let engines = try EngineServer()
        let autobahn = try SteeredServer(script: "autobahn_server.py")
        // The documented example (near Bremen, its coordinates as strings) on the A8: far from the route.
        try autobahn.steer(#"{"serve": {"A8/warning": "A1-warning-documented.json"}}"#)
        let sandbox = try drive(engines, autobahn)
        try sandbox.ok(["refresh", "--now", Self.noon])
        #expect(!(try sandbox.ok(["route", "drive", "--now", Self.noon]).stdout.contains("Incident")))
        // Down: said once a refresh (not under --quiet), and nothing known is lost.
        try autobahn.steer(#"{"fault": "503"}"#)
        let failing = try sandbox.run(["refresh", "--now", "2026-10-02T12:40:00+02:00"])
        #expect(failing.status == 0)
        #expect(failing.stderr == """
            traveltimes: warning: incidents on A8 not read: the Autobahn API answered HTTP 503; those known are kept
            traveltimes: warning: incidents on A81 not read: the Autobahn API answered HTTP 503; those known are kept

            """, "\(failing)")
        #expect(try sandbox.run(["refresh", "--quiet", "--now", "2026-10-02T12:50:00+02:00"]).stderr == "")
        let doctor = try sandbox.run(["doctor", "--now", "2026-10-02T12:50:00+02:00"]).stdout
        #expect(doctor.contains("the last ask failed: A8: the Autobahn API answered HTTP 503; A81: the Autobahn API answered HTTP 503"), "\(doctor)")
    }

    /// A keyed provider draws no line: OSRM is asked for it once (a day at most), then the
    /// Autobahn API as for any route.
    @Test func aKeyedRouteInGermanyGetsItsLineFromOSRMOnce() throws {
        let engines = try EngineServer()
        let autobahn = try SteeredServer(script: "autobahn_server.py")
        let providers = try ProviderServer()
        let sandbox = Sandbox()
        sandbox.environment.merge(engines.environment) { _, new in new }
        sandbox.environment.merge(providers.environment) { _, new in new }
        sandbox.environment["TRAVELTIMES_AUTOBAHN_URL"] = autobahn.base
        sandbox.environment["TRAVELTIMES_TZ"] = "Europe/Berlin"
        try engines.steer(#"{"ref": "A 8"}"#)
        try sandbox.ok(["config", "set", "contact", "me@example.org"])
        _ = try sandbox.run(["config", "set", "tomtom-key", "-"], stdin: "tt-KEYSECRET-1\n")
        try sandbox.ok(["route", "add", "drive", "--provider", "tomtom", "--from", "48.8309,8.95", "--to", "48.8509,8.7", "--now", Self.noon])
        #expect(engines.requests().isEmpty)
        try sandbox.ok(["refresh", "--all", "--now", Self.noon])
        #expect(engines.requests().count == 1)
        let shown = try sandbox.ok(["route", "drive", "--now", Self.noon]).stdout.components(separatedBy: "\n")
        #expect(shown.filter { $0.contains("Incident") } == [
            "  Incident: A8 | Heimsheim - Pforzheim-Nord (Stuttgart -> Karlsruhe): a warning (Autobahn GmbH notice, not a delay figure)",
        ], "\(shown)")
        // Drawn once: the next refreshes ask TomTom and the Autobahn API, not OSRM.
        try sandbox.ok(["refresh", "--all", "--now", "2026-10-02T12:45:00+02:00"])
        #expect(engines.requests().count == 1)
    }

    /// Hostile answers from the feed: not JSON, too large, too deep, impossible numbers and hidden
    /// characters. The refresh goes on, each road's problem said in one clean line; nothing hidden
    /// reaches the terminal; what was known is kept.
    @Test func hostileAnswersAreRefusedInOneLineAndChangeNothing() throws {
        let engines = try EngineServer()
        let autobahn = try SteeredServer(script: "autobahn_server.py")
        let sandbox = try drive(engines, autobahn)
        try sandbox.ok(["refresh", "--now", Self.noon])
        for (index, fault) in ["garbage", "huge", "deep", "absurd"].enumerated() {
            try autobahn.steer("{\"fault\": \"\(fault)\"}")
            let later = "2026-10-02T13:\(10 + 10 * index):00+02:00"
            let refresh = try sandbox.run(["refresh", "--now", later])
            #expect(refresh.status == 0, "\(fault): \(refresh)")
            let route = try sandbox.run(["route", "drive", "--now", later])
            #expect(route.status == 0, "\(fault): \(route)")
            for text in [refresh.stdout, refresh.stderr, route.stdout, route.stderr] {
                #expect(text.unicodeScalars.allSatisfy { !DisplayText.isHidden($0) || $0 == "\n" }, "\(fault): \(text)")
            }
            if fault != "absurd" {
                // Refused: said per road, and the warning known before is still shown.
                #expect(refresh.stderr.components(separatedBy: "\n").filter { $0.contains("incidents on A8 not read") }.count == 1, "\(fault): \(refresh)")
                #expect(route.stdout.contains("Incident: A8 | Heimsheim - Pforzheim-Nord"), "\(fault): \(route)")
            }
        }
    }
}

