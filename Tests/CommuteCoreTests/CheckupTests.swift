@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct CheckupTests {
    let now = Date(timeIntervalSince1970: 1_762_300_800)

    @Test func anEmptyStoreNamesEachMissingStepInOrder() throws {
        let directory = TemporaryDirectory()
        let commute = Commute(store: try Store(directory: directory.path), configuration: Configuration(), now: now, timeZone: .utc)
        #expect(commute.health.checkup(environment: ["TRAVELTIMES_SOURCE": "https://example.com"]) == [
            .noSource(onlyInShell: true), .zoneNotSaved, .noSchedules, .neverRefreshed(lastFailure: nil, hasSource: false),
        ])
        var saved = Configuration(source: "relative/feed.json")
        saved.timeZone = "Europe/London"
        let configured = Commute(store: try Store(directory: directory.path), configuration: saved, now: now, timeZone: .utc)
        #expect(configured.health.checkup(environment: ["TRAVELTIMES_TZ": "Asia/Tokyo"]).prefix(2) == [
            .sourceIsRelativePath(shown: "relative/feed.json"), .zoneOverridden(saved: "Europe/London", override: "Asia/Tokyo"),
        ])
    }

    @Test func ageAndFailuresDecideHowMuchARefreshMatters() {
        func refreshed(_ hours: Double, failing: String? = nil) -> Health.Finding.Severity {
            Health.Finding.refreshed(lastSuccess: now, age: hours * 3_600, lastFailure: failing).severity
        }
        #expect(refreshed(1) == .ok && refreshed(1, failing: "HTTP 503") == .warning)
        #expect(refreshed(3) == .warning && refreshed(25) == .problem)
        #expect(Health.Finding.dataAge(oldest: now, age: 3_600, alert: nil).severity == .ok)
        #expect(Health.Finding.dataAge(oldest: now, age: 3 * 3_600, alert: nil).severity == .warning)
        #expect(Health.Finding.dataAge(oldest: now, age: 25 * 3_600, alert: nil).severity == .problem)
    }
}
