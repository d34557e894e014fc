@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// Budgets count what was sent; failures and budget skips are told apart; every part of an answer
/// is checked on its own.
@Suite(.ownThreads) struct HonestProviderTests {
    let routes = CustomRouteTests()

    @Test func requestsNeverSentAreGivenBackAndReportedAsNotAsked() throws {
        let server = try ProviderServer()
        let sandbox = try routes.sandbox(server)
        for index in 1...5 {
            try #require(try routes.add(sandbox, "slow-\(index)", "tomtom", from: "6.\(index),-122.3", ["--no-check"]).status == 0)
        }
        let day = "2026-11-23"
        let refresh = try sandbox.run(["refresh", "--all", "--timeout", "3", "--json", "--now", day + "T08:00:00"])
        #expect(refresh.status == 75, "\(refresh)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(refresh.stdout.utf8)) as? [String: Any])
        let custom = try #require(json["custom"] as? [[String: Any]])
        let notAsked = custom.filter { ($0["reason"] as? String)?.hasPrefix("not asked") == true }
        let timedOut = custom.filter { ($0["reason"] as? String)?.contains("by the deadline") == true }
        // Four at a time: four were sent and waited on; the fifth's turn came after the time ran out.
        #expect(timedOut.count == 4 && notAsked.count == 1, "\(custom)")
        #expect(notAsked.first?["result"] as? String == "skipped")
        #expect(notAsked.first?["reason"] as? String == "not asked: the refresh's time ran out before its turn (no TomTom request was sent)")
        #expect(!refresh.stderr.contains(try #require(notAsked.first?["id"] as? String)), "\(refresh)")
        #expect(server.counts().tomtom == 4)
        #expect(try sandbox.store.refreshLog().requests(to: .tomtom, on: day) == 4, "charged what was sent")
    }

    @Test func concurrentRefreshesAndRetriesAreChargedWhatWasSent() throws {
        let server = try ProviderServer()
        let sandbox = try routes.sandbox(server)
        for index in 1...5 {
            try #require(try routes.add(sandbox, "slow-\(index)", "tomtom", from: "6.\(index),-122.3", ["--no-check"]).status == 0)
        }
        let day = "2026-11-23"
        // Three refreshes at once against a provider that never answers in time.
        let running = try (0..<3).map { _ in
            try sandbox.start(["refresh", "--all", "--timeout", "3", "--quiet", "--now", day + "T08:00:00"])
        }
        let outcomes = try running.map { try $0.wait() }
        #expect(outcomes.allSatisfy { $0.status == 75 }, "\(outcomes)")
        let sent = server.counts().tomtom
        #expect(sent > 0 && sent <= 12, "at most four at a time each: \(sent)")
        #expect(try sandbox.store.refreshLog().requests(to: .tomtom, on: day) == sent, "charged what was sent")
        // A 429 on each route's first request, answered on the retry: two requests each, both charged.
        for index in 1...3 {
            try #require(try routes.add(sandbox, "busy-\(index)", "here", from: "2.\(index),-122.3", ["--no-check"]).status == 0)
        }
        try sandbox.ok(["refresh", "--route", "busy-1", "--route", "busy-2", "--route", "busy-3", "--quiet", "--now", day + "T08:10:00"])
        #expect(server.counts().here == 6)
        #expect(try sandbox.store.refreshLog().requests(to: .here, on: day) == 6)
    }

    /// One fetch helper serves a whole refresh: twelve routes, each answered after 0.4 s, go out
    /// four at a time (on two cores as on many), over connections kept from one request to the next.
    @Test func oneHelperServesARefreshFourAtATimeOverKeptConnections() throws {
        let server = try ProviderServer()
        let sandbox = try routes.sandbox(server)
        for index in 1...12 {
            try #require(try routes.add(sandbox, "slow-\(index)", "tomtom", from: "9.\(index),-122.3", ["--no-check"]).status == 0)
        }
        let starts = sandbox.path("helper-starts")
        let wrapper = sandbox.path("counting-fetch")
        try "#!/bin/sh\necho \"$@\" >> '\(starts)'\nexec '\(Paths.binary)' \"$@\"\n".write(toFile: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        let started = Date()
        let refresh = try sandbox.run(
            ["refresh", "--all", "--quiet", "--now", "2026-11-23T08:00:00"], environment: ["TRAVELTIMES_FETCH_HELPER": wrapper])
        #expect(refresh.status == 0 && refresh.stderr.isEmpty, "\(refresh)")
        #expect(try String(contentsOfFile: starts, encoding: .utf8) == "fetch-helper --serve 4\n", "one helper for the whole refresh")
        let requests = server.requests()
        #expect(requests.count == 12)
        #expect(requests.map(\.inFlight).max() == 4, "\(requests.map(\.inFlight))")
        #expect(Set(requests.map(\.port)).count <= 4, "connections kept: \(requests.map(\.port))")
        // Three waves of 0.4 s, not twelve (nor six, two at a time).
        #expect(Date().timeIntervalSince(started) < 4.5)
        #expect(try sandbox.store.routes().routes.allSatisfy { $0.currentMinutes == 25 })
    }

    @Test func anOutageIsAFailureNotASpentBudget() throws {
        let server = try ProviderServer()
        let sandbox = try routes.sandbox(server)
        try sandbox.ok(["config", "set", "budget.here", "2"])
        for index in 1...3 {
            try #require(try routes.add(sandbox, "down-\(index)", "here", from: "7.\(index),-122.3", ["--no-check"]).status == 0)
        }
        let refresh = try sandbox.run(["refresh", "--all", "--now", "2026-11-23T08:00:00"])
        #expect(refresh.status == 75, "\(refresh)")
        #expect(
            refresh.stderr == """
                traveltimes: warning: HERE's daily budget of 2 requests is spent (`config set budget.here N`); down-3 has no time yet
                traveltimes: custom route down-1: HERE failed 1 time (last: HTTP 503); not tried again: the daily budget of 2 requests is spent
                traveltimes: custom route down-2: HERE failed 1 time (last: HTTP 503); not tried again: the daily budget of 2 requests is spent

                """, "\(refresh)")
        #expect(server.counts().here == 2)
        #expect(try sandbox.store.refreshLog().requests(to: .here, on: "2026-11-23") == 2)
    }

    @Test(arguments: [
        ("8.1", "HERE answered oddly: sections[0].summary.duration of 1e+308 s is not a travel time (0 to a day)"),
        ("8.2", "HERE answered oddly: sections[1].summary.duration of -300 s is not a travel time (0 to a day)"),
        ("8.4", "HERE answered oddly: a travel time of 0 s, which no route between two points takes"),
        ("8.5", "HERE answered oddly: sections[0].summary.typicalDuration is not a number of seconds"),
    ])
    func eachSectionIsCheckedOnItsOwn(_ origin: String, _ message: String) throws {
        let server = try ProviderServer()
        let sandbox = try routes.sandbox(server)
        let added = try routes.add(sandbox, "odd", "here", from: "\(origin),-122.3")
        #expect(added.status == 69, "\(added)")
        #expect(added.stderr == "traveltimes: \(message); route odd was not added\n", "\(added)")
        #expect(try sandbox.store.routes().routes.isEmpty, "nothing saved")
    }

    @Test func aKeyGivenTwiceKeepsItsFirstValue() throws {
        let server = try ProviderServer()
        let sandbox = try routes.sandbox(server)
        try #require(try routes.add(sandbox, "twice", "here", from: "8.3,-122.3").status == 0)
        #expect(try sandbox.store.routes().byID["twice"]?.currentMinutes == 2)
    }
}
