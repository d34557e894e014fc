import Basics
import CommuteDelivery
import Foundation
import TestThreads
import Testing

/// `export add|list|remove` end to end: the iCalendar and Prometheus files read by their oracles
/// (Python's icalendar, prometheus_client), Home Assistant's REST API against a stand-in shaped
/// after its documentation, and MQTT discovery against a real broker (Debian's mosquitto, started
/// here on a free loopback port). Each export sends only what changed: a run that changes nothing
/// sends and writes nothing.
@Suite(.ownThreads) struct ExportTests {
    static let oracle = Paths.root.appendingPathComponent("Tests/Support/export_oracle.py").path

    /// What an oracle prints reading `file`, or its complaint.
    static func oracle(_ mode: String, _ file: String) throws -> String {
        let outcome = try execute(["/usr/bin/env", "python3", oracle, mode, file], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        return outcome.status == 0 ? outcome.stdout : "oracle refused: \(outcome.stdout)\(outcome.stderr)"
    }

    /// The inode and modification time of a file: what shows it was not written.
    static func stamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "none" }
        return "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    @Test(ExternalTool.recurringICalEvents.needed, ExternalTool.prometheusClient.needed)
    func theCalendarAndTheTextfileAreWhatTheirOraclesRead() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["schedule", "add", "--arrive-by", "8:30", "--route", "96", "--days", "wed"])
        let ics = sandbox.home + "-out/leave.ics"
        let prom = sandbox.home + "-out/traveltimes.prom"
        try FileManager.default.createDirectory(atPath: sandbox.home + "-out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: sandbox.home + "-out") }

        let refused = try sandbox.run(["export", "add", "prometheus", sandbox.home + "-out/metrics.txt"])
        #expect(Whole.normal(refused.stderr) == """
            traveltimes: node_exporter's textfile collector reads only files ending in .prom: name it metrics.txt.prom; the export was not added. See 'traveltimes export add --help'.

            """ && refused.status == 64)
        let nowhere = try sandbox.run(["export", "add", "ics", sandbox.home + "-none/leave.ics"])
        #expect(Whole.normal(nowhere.stderr) == """
            traveltimes: $TMP-none is not a directory; the export was not added. See 'traveltimes export add --help'.

            """ && nowhere.status == 64)
        #expect(Whole.normal(try sandbox.ok(["export", "add", "ics", ics]).stdout) == """
            Added export ics (ics, $TMP-out/leave.ics): written. Each refresh and tick sends what changes.

            """)
        #expect(Whole.normal(try sandbox.ok(["export", "add", "prometheus", prom]).stdout) == """
            Added export prometheus (prometheus, $TMP-out/traveltimes.prom): written. Each refresh and tick sends what changes.

            """)
        #expect(Whole.normal(try Self.oracle("ics", ics)) == #"""
            ["$UUID-2025-11-05@traveltimes", "2025-11-05T15:00:00+00:00", "2025-11-05T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 15 h old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-05@traveltimes", "2025-11-05T16:11:00+00:00", "2025-11-05T16:30:00+00:00", "Leave for Arrive by 8:30 AM on Wed", "Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nExpected arrival 8:25 AM by Seattle-Bellevue via 90\nData is 16 h old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-06@traveltimes", "2025-11-06T15:00:00+00:00", "2025-11-06T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 39 h old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-07@traveltimes", "2025-11-07T15:00:00+00:00", "2025-11-07T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 2 days old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-10@traveltimes", "2025-11-10T15:00:00+00:00", "2025-11-10T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 5 days old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-11@traveltimes", "2025-11-11T15:00:00+00:00", "2025-11-11T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 6 days old (updated Tue, Nov 4, 4:00 PM)"]

            """#)
        #expect(try Self.oracle("prom", prom) == #"""
            ["traveltimes_route_seconds", "gauge", "traveltimes_route_seconds", {"route": "1", "name": "Everett-Seattle"}, 2040]
            ["traveltimes_route_seconds", "gauge", "traveltimes_route_seconds", {"route": "96", "name": "Seattle-Bellevue via 90"}, 840]
            ["traveltimes_route_seconds", "gauge", "traveltimes_route_seconds", {"route": "4", "name": "Seattle-Everett"}, 2880]
            ["traveltimes_route_typical_seconds", "gauge", "traveltimes_route_typical_seconds", {"route": "1", "name": "Everett-Seattle"}, 2700]
            ["traveltimes_route_typical_seconds", "gauge", "traveltimes_route_typical_seconds", {"route": "96", "name": "Seattle-Bellevue via 90"}, 900]
            ["traveltimes_route_typical_seconds", "gauge", "traveltimes_route_typical_seconds", {"route": "4", "name": "Seattle-Everett"}, 3420]
            ["traveltimes_last_refresh_timestamp_seconds", "gauge", "traveltimes_last_refresh_timestamp_seconds", {}, 1762300800]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "tomtom"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "here"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "google"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "transitous"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "osrm"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "valhalla"}, 0]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "delivered"}, 0]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "failed"}, 0]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "missed"}, 0]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "suppressed"}, 0]

            """#)
        let mode = try FileManager.default.attributesOfItem(atPath: ics)[.posixPermissions] as? Int
        #expect(mode == 0o644)

        // A refresh of the same feed, and a tick with nothing due: nothing written, not even the
        // store's record of the exports.
        let before = [ics, prom, sandbox.path("exports.json")].map(Self.stamp)
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        try sandbox.ok(["tick", "--quiet"])
        #expect([ics, prom, sandbox.path("exports.json")].map(Self.stamp) == before)

        // A tick that delivers an alert changes the counts, and the plan: both files follow.
        let tick = try sandbox.run(["tick", "--now", "2025-11-05T07:00:00-08:00"])
        #expect(tick.status == 0, "\(tick)")
        #expect(try Self.oracle("prom", prom) == #"""
            ["traveltimes_route_seconds", "gauge", "traveltimes_route_seconds", {"route": "1", "name": "Everett-Seattle"}, 2040]
            ["traveltimes_route_seconds", "gauge", "traveltimes_route_seconds", {"route": "96", "name": "Seattle-Bellevue via 90"}, 840]
            ["traveltimes_route_seconds", "gauge", "traveltimes_route_seconds", {"route": "4", "name": "Seattle-Everett"}, 2880]
            ["traveltimes_route_typical_seconds", "gauge", "traveltimes_route_typical_seconds", {"route": "1", "name": "Everett-Seattle"}, 2700]
            ["traveltimes_route_typical_seconds", "gauge", "traveltimes_route_typical_seconds", {"route": "96", "name": "Seattle-Bellevue via 90"}, 900]
            ["traveltimes_route_typical_seconds", "gauge", "traveltimes_route_typical_seconds", {"route": "4", "name": "Seattle-Everett"}, 3420]
            ["traveltimes_last_refresh_timestamp_seconds", "gauge", "traveltimes_last_refresh_timestamp_seconds", {}, 1762300800]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "tomtom"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "here"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "google"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "transitous"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "osrm"}, 0]
            ["traveltimes_provider_requests", "counter", "traveltimes_provider_requests_total", {"provider": "valhalla"}, 0]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "delivered"}, 1]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "failed"}, 0]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "missed"}, 0]
            ["traveltimes_alerts", "counter", "traveltimes_alerts_total", {"outcome": "suppressed"}, 0]

            """#)
        #expect(Whole.normal(try Self.oracle("ics", ics)) == #"""
            ["$UUID-2025-11-05@traveltimes", "2025-11-05T16:11:00+00:00", "2025-11-05T16:30:00+00:00", "Leave for Arrive by 8:30 AM on Wed", "Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nExpected arrival 8:25 AM by Seattle-Bellevue via 90\nData is 16 h old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-06@traveltimes", "2025-11-06T15:00:00+00:00", "2025-11-06T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 39 h old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-07@traveltimes", "2025-11-07T15:00:00+00:00", "2025-11-07T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 2 days old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-10@traveltimes", "2025-11-10T15:00:00+00:00", "2025-11-10T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 5 days old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-11@traveltimes", "2025-11-11T15:00:00+00:00", "2025-11-11T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 6 days old (updated Tue, Nov 4, 4:00 PM)"]
            ["$UUID-2025-11-12@traveltimes", "2025-11-12T15:00:00+00:00", "2025-11-12T15:14:00+00:00", "Leave for Commute at 7:00 AM (Weekdays)", "Everett-Seattle: 34 min (-11 min, CLEAR)\nSeattle-Bellevue via 90: 14 min (-1 min, CLEAR)\nSeattle-Everett: 48 min (-9 min, CLEAR)\nData is 7 days old (updated Tue, Nov 4, 4:00 PM)"]

            """#)
        #expect(Whole.normal(try sandbox.ok(["export", "list"]).stdout) == #"""
            ics  ics  $TMP-out/leave.ics  last sent Wed, Nov 5, 7:00 AM
            prometheus  prometheus  $TMP-out/traveltimes.prom  last sent Wed, Nov 5, 7:00 AM

            """#)
        #expect(Whole.normal(try sandbox.ok(["export", "remove", "ics", "--yes"]).stdout) == """
            Removed export ics (ics, $TMP-out/leave.ics); removed $TMP-out/leave.ics.

            """)
        #expect(!FileManager.default.fileExists(atPath: ics))
    }
}

extension ExportTests {
    /// Prometheus's own checker (`promtool check metrics`, its lint rules: base units, `_total`
    /// counters, HELP on every family) finds nothing to say of the textfile.
    @Test(ExternalTool.promtool.needed) func theTextfilePassesPromtool() throws {
        let sandbox = try Sandbox().prepared()
        let prom = sandbox.home + "-out/traveltimes.prom"
        try FileManager.default.createDirectory(atPath: sandbox.home + "-out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: sandbox.home + "-out") }
        try sandbox.ok(["export", "add", "prometheus", prom])
        let checked = try execute(["/bin/sh", "-c", "promtool check metrics < \"$0\"", prom], environment: ProcessInfo.processInfo.environment)
        #expect(checked == Outcome(status: 0, stdout: "", stderr: ""), "\(checked)")
        let text = try String(contentsOfFile: prom, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("traveltimes_route") } == [
            #"traveltimes_route_seconds{route="1",name="Everett-Seattle"} 2040"#,
            #"traveltimes_route_seconds{route="96",name="Seattle-Bellevue via 90"} 840"#,
            #"traveltimes_route_seconds{route="4",name="Seattle-Everett"} 2880"#,
            #"traveltimes_route_typical_seconds{route="1",name="Everett-Seattle"} 2700"#,
            #"traveltimes_route_typical_seconds{route="96",name="Seattle-Bellevue via 90"} 900"#,
            #"traveltimes_route_typical_seconds{route="4",name="Seattle-Everett"} 3420"#,
        ])
        // The names it used to have, in minutes: what promtool refuses ("use base unit seconds").
        let minutes = sandbox.home + "-out/minutes.prom"
        try Data("# HELP traveltimes_route_minutes Minutes.\n# TYPE traveltimes_route_minutes gauge\ntraveltimes_route_minutes 34\n".utf8)
            .write(to: URL(fileURLWithPath: minutes))
        let refused = try execute(["/bin/sh", "-c", "promtool check metrics < \"$0\"", minutes], environment: ProcessInfo.processInfo.environment)
        #expect(refused.status != 0, "\(refused)")
    }

    @Test func homeAssistantHasASensorPerFavoriteAndOnlyChangesAreSent() throws {
        let server = try SteeredServer(script: "homeassistant_server.py")
        let sandbox = try Sandbox(runner: .binary).prepared()
        func requests() -> String {
            server.entries().map { entry in
                "\(entry["method"] ?? "") \(entry["path"] ?? "") \(entry["authorization"] ?? "-") \(entry["contentType"] ?? "-") \(entry["body"] ?? "")\n"
            }.joined()
        }

        // The token comes on standard input; a wrong one is refused, and nothing is saved.
        let refused = try sandbox.run(["export", "add", "homeassistant", server.base, "--token", "-"], stdin: "tk-wrong\n")
        #expect(Whole.normal(refused.stdout + refused.stderr) == """
            traveltimes: export homeassistant (http://127.0.0.1:PORT): Home Assistant refused the token (HTTP 401): make a long-lived access token for an administrator on your profile page; the export was not added

            """ && refused.status == 69)
        #expect(Whole.normal(try sandbox.ok(["export", "list"]).stdout) == "No exports yet: add one with `traveltimes export add homeassistant|mqtt|ics|prometheus …`.\n")
        let bare = try sandbox.run(["export", "add", "homeassistant", server.base])
        #expect(bare.status == 64 && Whole.normal(bare.stderr) == """
            traveltimes: Missing --token -: the long-lived access token, on standard input (`printf '%s\\n' "$TOKEN" | traveltimes export add homeassistant URL --token -`). See 'traveltimes export add --help'.

            """)

        let added = try sandbox.run(["export", "add", "homeassistant", server.base + "/", "--token", "-"], stdin: "good-token\n")
        #expect(Whole.normal(added.stdout + added.stderr) == """
            Added export homeassistant (homeassistant, http://127.0.0.1:PORT): 3 sensors sent. Each refresh and tick sends what changes.

            """ && added.status == 0)
        #expect(Whole.normal(requests()) == #"""
            POST /api/states/sensor.traveltimes_1 Bearer tk-wrong application/json {"state":"34","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_1 Bearer good-token application/json {"state":"34","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"14","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_4 Bearer good-token application/json {"state":"48","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Everett","route":"4","typical":57,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}

            """#)

        // The same feed again: nothing changed, nothing sent.
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        #expect(server.entries().count == 4)
        // A route slower, and a favorite gone: that sensor alone is sent, the other is deleted.
        let slower = try sandbox.feed("slower") { routes in routes[96]?["CurrentTime"] = 29 }
        try sandbox.ok(["favorites", "remove", "4", "--yes"])
        try sandbox.ok(["refresh", "--source", slower])
        #expect(Whole.normal(requests()) == #"""
            POST /api/states/sensor.traveltimes_1 Bearer tk-wrong application/json {"state":"34","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_1 Bearer good-token application/json {"state":"34","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"14","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_4 Bearer good-token application/json {"state":"48","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Everett","route":"4","typical":57,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"29","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CONGESTED","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            DELETE /api/states/sensor.traveltimes_4 Bearer good-token application/json 

            """#)

        // Home Assistant down: said once (the server's words never repeated), tried again at the
        // next run, shown by doctor and export list.
        try server.steer(#"{"fault": "echo"}"#)
        let faster = try sandbox.feed("faster") { routes in routes[96]?["CurrentTime"] = 12 }
        let failing = try sandbox.run(["refresh", "--source", faster])
        #expect(failing.status == 0 && Whole.normal(failing.stderr) == """
            traveltimes: warning: export homeassistant (http://127.0.0.1:PORT) failed: Home Assistant refused the token (HTTP 401): make a long-lived access token for an administrator on your profile page; tried again at the next run

            """)
        #expect(try sandbox.run(["refresh", "--source", faster]).stderr == "")
        #expect(Whole.normal(try sandbox.ok(["export", "list"]).stdout) == #"""
            homeassistant  homeassistant  http://127.0.0.1:PORT  last sent Tue, Nov 4, 4:00 PM
              last attempt failed: Home Assistant refused the token (HTTP 401): make a long-lived access token for an administrator on your profile page (tried again at the next run)

            """#)
        let doctor = try sandbox.run(["doctor"])
        #expect(doctor.stdout.split(separator: "\n").filter { $0.contains("export") }.map { Whole.normal(String($0)) + "\n" }.joined() == #"""
            warning  export homeassistant  homeassistant, http://127.0.0.1:PORT: last sent a change 4:00 PM; the last attempt failed: Home Assistant refused the token (HTTP 401): make a long-lived access token for an administrator on your profile page
                                           → the next refresh tries again; traveltimes export remove homeassistant and add it again to change its address or token

            """#)
        // Tick leaves a failing export alone for five minutes; then it tries again.
        try server.steer("{}")
        try sandbox.ok(["tick", "--now", "2025-11-04T16:06:00-08:00"])
        #expect(Whole.normal(requests()) == #"""
            POST /api/states/sensor.traveltimes_1 Bearer tk-wrong application/json {"state":"34","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_1 Bearer good-token application/json {"state":"34","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"14","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_4 Bearer good-token application/json {"state":"48","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Everett","route":"4","typical":57,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"29","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CONGESTED","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            DELETE /api/states/sensor.traveltimes_4 Bearer good-token application/json 
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"12","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"12","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}
            POST /api/states/sensor.traveltimes_96 Bearer good-token application/json {"state":"12","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}}

            """#)
        // The token lives in config.json (0600) alone: in no output, no other file.
        for name in try FileManager.default.contentsOfDirectory(atPath: sandbox.home) where name != "config.json" {
            #expect(!(String(data: sandbox.bytes(name) ?? Data(), encoding: .utf8) ?? "").contains("good-token"), "\(name)")
        }
        #expect(!(try sandbox.ok(["config", "show"]).stdout + sandbox.ok(["export", "list", "--json"]).stdout).contains("good-token"))

        // Removed: its sensors are deleted from Home Assistant, not left frozen.
        let before = server.entries().count
        #expect(Whole.normal(try sandbox.ok(["export", "remove", "homeassistant", "--yes"]).stdout) == """
            Removed export homeassistant (homeassistant, http://127.0.0.1:PORT); deleted 2 sensors from Home Assistant.

            """)
        #expect(Whole.normal(server.entries().dropFirst(before).map { "\($0["method"] ?? "") \($0["path"] ?? "")\n" }.joined()) == """
            DELETE /api/states/sensor.traveltimes_1
            DELETE /api/states/sensor.traveltimes_96

            """)
    }
}

extension ExportTests {
    @Test(ExternalTool.mosquitto.needed) func mqttDiscoveryOnARealBroker() throws {
        let broker = try Broker(user: "ha", password: "s3cret")
        let sandbox = try Sandbox(runner: .binary).prepared()
        let url = "mqtt://ha:s3cret@127.0.0.1:\(broker.port)/commute"

        let refused = try sandbox.run(["export", "add", "mqtt", "mqtt://ha:wrong@127.0.0.1:\(broker.port)"])
        #expect(Whole.normal(refused.stderr) == """
            traveltimes: export mqtt (mqtt://127.0.0.1:PORT/traveltimes): the broker refused: not authorized (check the user name and password); the export was not added

            """ && refused.status == 69)
        let added = try sandbox.run(["export", "add", "mqtt", url])
        #expect(Whole.normal(added.stdout + added.stderr) == """
            Added export mqtt (mqtt, mqtt://127.0.0.1:PORT/commute): 10 retained messages published. Each refresh and tick sends what changes.

            """ && added.status == 0)
        #expect(try broker.retained(count: 10, user: "ha", password: "s3cret") == #"""
            1 1 commute/status online
            1 1 commute/traveltimes_1/attributes {"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}
            1 1 commute/traveltimes_1/state 34
            1 1 commute/traveltimes_4/attributes {"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Everett","route":"4","typical":57,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}
            1 1 commute/traveltimes_4/state 48
            1 1 commute/traveltimes_96/attributes {"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}
            1 1 commute/traveltimes_96/state 14
            1 1 homeassistant/sensor/traveltimes_1/config {"name":"Everett-Seattle","unique_id":"traveltimes_1","default_entity_id":"sensor.traveltimes_1","object_id":"traveltimes_1","state_topic":"commute/traveltimes_1/state","json_attributes_topic":"commute/traveltimes_1/attributes","unit_of_measurement":"min","device_class":"duration","availability_topic":"commute/status","payload_available":"online","payload_not_available":"offline","device":{"identifiers":["traveltimes_commute"],"name":"traveltimes","manufacturer":"traveltimes","model":"Commute travel times","sw_version":"0.4.0"},"origin":{"name":"traveltimes","sw_version":"0.4.0"}}
            1 1 homeassistant/sensor/traveltimes_4/config {"name":"Seattle-Everett","unique_id":"traveltimes_4","default_entity_id":"sensor.traveltimes_4","object_id":"traveltimes_4","state_topic":"commute/traveltimes_4/state","json_attributes_topic":"commute/traveltimes_4/attributes","unit_of_measurement":"min","device_class":"duration","availability_topic":"commute/status","payload_available":"online","payload_not_available":"offline","device":{"identifiers":["traveltimes_commute"],"name":"traveltimes","manufacturer":"traveltimes","model":"Commute travel times","sw_version":"0.4.0"},"origin":{"name":"traveltimes","sw_version":"0.4.0"}}
            1 1 homeassistant/sensor/traveltimes_96/config {"name":"Seattle-Bellevue via 90","unique_id":"traveltimes_96","default_entity_id":"sensor.traveltimes_96","object_id":"traveltimes_96","state_topic":"commute/traveltimes_96/state","json_attributes_topic":"commute/traveltimes_96/attributes","unit_of_measurement":"min","device_class":"duration","availability_topic":"commute/status","payload_available":"online","payload_not_available":"offline","device":{"identifiers":["traveltimes_commute"],"name":"traveltimes","manufacturer":"traveltimes","model":"Commute travel times","sw_version":"0.4.0"},"origin":{"name":"traveltimes","sw_version":"0.4.0"}}

            """#)

        // Nothing changed: no connection at all. A favorite removed: its entity and values cleared.
        let connections = broker.connections
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        #expect(broker.connections == connections)
        try sandbox.ok(["favorites", "remove", "4", "--yes"])
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        #expect(broker.connections == connections + 1)
        #expect(try broker.retained(count: 7, user: "ha", password: "s3cret") == #"""
            1 1 commute/status online
            1 1 commute/traveltimes_1/attributes {"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":45,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}
            1 1 commute/traveltimes_1/state 34
            1 1 commute/traveltimes_96/attributes {"unit_of_measurement":"min","device_class":"duration","friendly_name":"Seattle-Bellevue via 90","route":"96","typical":15,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T07:00:00-08:00"}
            1 1 commute/traveltimes_96/state 14
            1 1 homeassistant/sensor/traveltimes_1/config {"name":"Everett-Seattle","unique_id":"traveltimes_1","default_entity_id":"sensor.traveltimes_1","object_id":"traveltimes_1","state_topic":"commute/traveltimes_1/state","json_attributes_topic":"commute/traveltimes_1/attributes","unit_of_measurement":"min","device_class":"duration","availability_topic":"commute/status","payload_available":"online","payload_not_available":"offline","device":{"identifiers":["traveltimes_commute"],"name":"traveltimes","manufacturer":"traveltimes","model":"Commute travel times","sw_version":"0.4.0"},"origin":{"name":"traveltimes","sw_version":"0.4.0"}}
            1 1 homeassistant/sensor/traveltimes_96/config {"name":"Seattle-Bellevue via 90","unique_id":"traveltimes_96","default_entity_id":"sensor.traveltimes_96","object_id":"traveltimes_96","state_topic":"commute/traveltimes_96/state","json_attributes_topic":"commute/traveltimes_96/attributes","unit_of_measurement":"min","device_class":"duration","availability_topic":"commute/status","payload_available":"online","payload_not_available":"offline","device":{"identifiers":["traveltimes_commute"],"name":"traveltimes","manufacturer":"traveltimes","model":"Commute travel times","sw_version":"0.4.0"},"origin":{"name":"traveltimes","sw_version":"0.4.0"}}

            """#)

        // The broker gone: said once, tried again at the next run, and sent when it is back.
        broker.stop()
        let slower = try sandbox.feed("slower") { routes in routes[96]?["CurrentTime"] = 29 }
        let down = try sandbox.run(["refresh", "--source", slower])
        #expect(down.status == 0 && Whole.normal(down.stderr) == """
            traveltimes: warning: export mqtt (mqtt://127.0.0.1:PORT/commute) failed: cannot connect to 127.0.0.1:PORT: Connection refused; tried again at the next run

            """)
        #expect(try sandbox.run(["refresh", "--source", slower]).stderr == "")
        try broker.start()
        try sandbox.ok(["tick", "--now", "2025-11-04T16:06:00-08:00"])
        #expect(try broker.retained(count: 7, user: "ha", password: "s3cret").contains("1 1 commute/traveltimes_96/state 29\n"))
        #expect(!(try sandbox.ok(["export", "list", "--json"]).stdout + sandbox.ok(["config", "show"]).stdout).contains("s3cret"))

        // Removed: every retained message it published is emptied, the availability too, so Home
        // Assistant forgets the sensors rather than showing their last values as live.
        let removed = try sandbox.run(["export", "remove", "mqtt", "--yes"])
        #expect(Whole.normal(removed.stdout + removed.stderr) == """
            Removed export mqtt (mqtt, mqtt://127.0.0.1:PORT/commute); emptied 7 retained messages.

            """ && removed.status == 0)
        #expect(try broker.retained(count: 1, user: "ha", password: "s3cret") == "")
    }

    /// The session's last will, as the broker keeps it: a client that sent traveltimes' CONNECT
    /// and then vanished without a DISCONNECT leaves the availability `offline`, retained.
    @Test(ExternalTool.mosquitto.needed) func theLastWillMarksTheSensorsOffline() throws {
        let broker = try Broker(user: "ha", password: "s3cret")
        let will = MQTTPacket.Message(topic: "commute/status", payload: Data("offline".utf8))
        let connect = MQTTPacket.connect(clientID: "traveltimes1", user: "ha", password: "s3cret", keepAlive: 30, will: will)
        // Flags: user, password, will retained at QoS 1, clean session (§3.1.2.3).
        #expect(connect[9] == 0xEE)
        let hex = connect.map { String(format: "%02x", $0) }.joined()
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(bytes.fromhex(sys.argv[2]))
            assert s.recv(4) == bytes([0x20, 2, 0, 0])
            s.close()
            """
        let gone = try execute(["python3", "-c", script, String(broker.port), hex], environment: ProcessInfo.processInfo.environment)
        #expect(gone.status == 0, "\(gone)")
        #expect(try broker.retained(count: 1, user: "ha", password: "s3cret") == "1 1 commute/status offline\n")
    }

    /// With no favorite yet, a first Home Assistant export still proves its address and token (the
    /// API's root), and a wrong one is not added.
    @Test func aHomeAssistantExportWithNoFavoritesStillChecksTheToken() throws {
        let server = try SteeredServer(script: "homeassistant_server.py")
        let sandbox = Sandbox(runner: .binary)
        let wrong = try sandbox.run(["export", "add", "homeassistant", server.base, "--token", "-"], stdin: "tk-wrong\n")
        #expect(wrong.status == 69 && Whole.normal(wrong.stderr) == """
            traveltimes: export homeassistant (http://127.0.0.1:PORT): Home Assistant refused the token (HTTP 401): make a long-lived access token for an administrator on your profile page; the export was not added

            """)
        let right = try sandbox.run(["export", "add", "homeassistant", server.base, "--token", "-"], stdin: "good-token\n")
        #expect(right.status == 0 && Whole.normal(right.stdout) == """
            Added export homeassistant (homeassistant, http://127.0.0.1:PORT): 0 sensors sent. Each refresh and tick sends what changes.

            """)
        #expect(server.entries().isEmpty)  // the root was asked (GET, not logged); nothing posted
    }

    /// A server that is not a broker (a web server waiting for a request line) costs the bounded
    /// wait and one line, never a hang.
    @Test func anMQTTExportToSomethingElseFailsInTime() throws {
        let server = try SteeredServer(script: "homeassistant_server.py")
        let sandbox = Sandbox()
        let outcome = try sandbox.run(["export", "add", "mqtt", "mqtt://127.0.0.1:\(server.base.split(separator: ":").last ?? "")", "--timeout", "1"])
        #expect(Whole.normal(outcome.stderr) == """
            traveltimes: export mqtt (mqtt://127.0.0.1:PORT/traveltimes): no answer from the broker at 127.0.0.1:PORT in time; the export was not added

            """ && outcome.status == 69)
    }
}
