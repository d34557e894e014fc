import Foundation

// 2h. Following a trip after its leave alert: a Transitous trip whose line leaves 30 minutes after
// the alert (a 30-minute walk to the stop), ticked every minute until it leaves, against the
// loopback stand-in. What it costs is counted in requests, which is what the public service sees.
@MainActor
func benchFollow() {
    let store = home + "-follow"
    defer { try? FileManager.default.removeItem(atPath: store) }
    let control = store + "-control.json"
    defer { try? FileManager.default.removeItem(atPath: control) }
    _ = FileManager.default.createFile(atPath: control, contents: Data(#"{"walk": 30}"#.utf8))
    guard let server = LoopbackServer(script: "Tests/Support/transitous_server.py", arguments: ["--control", control]) else {
        report("following one trip for 30 minutes", "     n/a", "needs python3", nil)
        return
    }
    defer { server.stop() }
    var followEnvironment = environment
    followEnvironment["TRAVELTIMES_HOME"] = store
    followEnvironment["TRAVELTIMES_TRANSITOUS_URL"] = server.url("")
    followEnvironment["TRAVELTIMES_TZ"] = "America/Los_Angeles"
    let day = "2026-11-24T"
    must(["config", "set", "contact", "bench@example.org"], environment: followEnvironment)
    must(["route", "add", "bus", "--provider", "transitous", "--from", "47.6097,-122.3422", "--to", "47.6712,-122.1185", "--now", day + "06:00:00-08:00"],
         environment: followEnvironment)
    must(["favorites", "add", "bus"], environment: followEnvironment)
    must(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--heads-up", "off", "--route", "bus", "--days", "weekdays", "--now",
          day + "06:00:00-08:00"], environment: followEnvironment)
    must(["refresh", "--quiet", "--now", day + "07:30:00-08:00"], environment: followEnvironment)
    // The leave alert at 7:47 names the 8:17 bus; then a tick a minute until it leaves, the bus
    // running a little late (under the threshold: nothing to say, every look made).
    must(["tick", "--quiet", "--now", day + "07:47:00-08:00"], environment: followEnvironment)
    _ = FileManager.default.createFile(atPath: control, contents: Data(#"{"walk": 30, "delays": {"16:17": 2}}"#.utf8))
    let before = requests(server.log)
    for minute in 48...77 {
        let clock = String(format: "%02d:%02d", 7 + minute / 60, minute % 60)
        must(["tick", "--quiet", "--now", day + clock + ":00-08:00"], environment: followEnvironment)
    }
    let asked = requests(server.log) - before
    report("following one Transitous trip for 30 minutes (a tick a minute)", String(format: "%8d", asked), "requests; target ≤ 6", asked > 0 && asked <= 6)
}

/// The requests a stand-in logged (one JSON line each).
private func requests(_ log: String) -> Int {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
}
