@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// Publishing the exports, the use case `refresh` and `tick` share, driven without the binary: an
/// export added is written at once; what has not changed is not written again; a tick that
/// changed nothing publishes nothing (and makes no client); one that sent an alert publishes, its
/// file rewritten with the count.
@Suite(.ownThreads) struct ExportPublishUseCaseTests {
    /// A client the test can ask whether it was made, and that refuses every request (a file
    /// export needs none).
    final class Clients: @unchecked Sendable {
        private(set) var made = 0
        func make() -> any HTTPClient {
            made += 1
            return Refusing()
        }
    }

    struct Refusing: HTTPClient {
        func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
            throw HTTPClientError.connection("no network in this test")
        }
        func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
            throw HTTPClientError.connection("no network in this test")
        }
    }

    @Test func addedExportsAreWrittenOnceAndATickPublishesOnlyWhatChanged() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let la = zone("America/Los_Angeles")
        let start = instant("2025-11-04T15:50:00-08:00")
        let setup = Commute(store: store, now: start, timeZone: la)
        _ = try setup.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        _ = try setup.favorites.addFavorites(["1"])
        _ = try setup.schedules.addSchedule(.init(days: [.tuesday], time: TimeOfDay(hour: 16, minute: 0)))
        let metrics = directory.path + "/traveltimes.prom"
        let added = try setup.exports.add(
            ExportTarget(id: "prometheus", kind: .prometheus, location: metrics, createdAt: start), client: Refusing(), timeout: 5)
        guard case .sent(let count) = added.result else {
            Issue.record("adding wrote nothing: \(added.result)")
            return
        }
        #expect(count > 0)
        let written = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(written.contains("traveltimes_route_seconds{") && written.contains("route=\"1\""), "\(written)")

        // As the command line opens it: with the configuration the export was saved in.
        func commute(at moment: Date) throws -> Commute {
            Commute(store: store, configuration: try store.configuration(), now: moment, timeZone: la)
        }
        // Nothing changed since: nothing is written.
        let again = try commute(at: start.addingTimeInterval(60)).exports.publish(client: Refusing(), timeout: 5)
        #expect(again.map(\.result) == [.unchanged])

        // A tick with nothing due changes nothing: nothing is published, no client is made.
        let clients = Clients()
        let quiet = try commute(at: start.addingTimeInterval(120))
        let idle = try quiet.alerts.tick(notifiers: [Notifier(id: 0, kind: .stdout)], sender: ClosureSender { _, _ in .delivered })
        #expect(idle.sent.isEmpty)
        #expect(try quiet.exports.publishAfterTick(idle, client: clients.make).isEmpty && clients.made == 0)

        // The 4:00 PM alert is sent: the tick publishes, and the metrics count it.
        let due = try commute(at: instant("2025-11-04T16:00:00-08:00"))
        let sent = try due.alerts.tick(notifiers: [Notifier(id: 0, kind: .stdout)], sender: ClosureSender { _, _ in .delivered })
        #expect(sent.sent.count == 1)
        // The file was rewritten when the tick re-planned after sending (as every re-plan writes the
        // file exports); publishing then finds it current.
        let after = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(after.contains("traveltimes_alerts_total{outcome=\"delivered\"} 1\n") && written.contains("traveltimes_alerts_total{outcome=\"delivered\"} 0\n"), "\(after)")
        let published = try due.exports.publishAfterTick(sent, client: clients.make)
        #expect(clients.made == 1 && published.map(\.result) == [.unchanged])
    }
}
