@_spi(Store) @testable import CommuteCore
@testable import CommuteDelivery
@testable import CommuteModel
@_spi(Store) @testable import CommuteSources
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// `Commute.refresh`, the refresh use case, driven without the binary: its steps in order, what
/// each leaves in the report, and how a failure ends up in it.
@Suite(.ownThreads) struct RefreshUseCaseTests {
    let now = instant("2025-11-04T16:00:00-08:00")

    /// Every step as the front end hears it.
    final class Steps: RefreshObserver {
        var heard: [String] = []
        func starting(_ step: RefreshStep) { heard.append("starting \(step)") }
        func finished(_ step: RefreshStep, _ report: RefreshReport) { heard.append("finished \(step)") }
    }

    func request(feed path: String?, session: HelperSession, only: [RouteID] = []) -> RefreshRequest {
        RefreshRequest(
            feed: path.flatMap { path in FeedSource(path).map { ($0, "the fixture") } }, accessCode: nil, only: only, selection: .inPlay,
            timeout: 10, quiet: false, access: ProviderAccess(keys: [:], client: session), session: session, secrets: [],
            places: { nil }, sender: NotifierSender(print: { _ in }, helperPath: "/nonexistent/traveltimes", environment: .empty))
    }

    @Test func aFeedIsReadSavedAndPlannedAndEachStepIsTold() throws {
        let directory = TemporaryDirectory()
        let commute = Commute(store: try Store(directory: directory.path), now: now, timeZone: zone("America/Los_Angeles"))
        let session = HelperSession(helperPath: "/nonexistent/traveltimes", environment: .empty)
        defer { session.finish() }
        // A schedule over a route of the feed, so that the refresh has alerts to plan.
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        _ = try commute.favorites.addFavorites(["1"])
        _ = try commute.schedules.addSchedule(.init(routeIDs: ["1"]))
        let steps = Steps()
        let report = try commute.refresh(request(feed: fixtureURL.path, session: session), observer: steps)
        // The routes just read go to the delay watches (there are none: nothing is sent).
        #expect(steps.heard == ["starting feed", "finished feed", "finished planned", "finished watches"])
        #expect(report.events.isEmpty && report.watchProblem == nil)
        #expect(report.feed?.routeCount == 163 && report.feedError == nil && report.custom == nil && report.transit.isEmpty)
        #expect(report.feed?.reschedule.scheduled ?? 0 > 0)
        #expect(report.shortfall(commute, secrets: [], quiet: false) == nil)
        #expect(try commute.store.routes().routes.count == 163)
    }

    @Test func aFeedThatCannotBeReadIsInTheReportAndTheRunGoesOn() throws {
        let directory = TemporaryDirectory()
        let commute = Commute(store: try Store(directory: directory.path), now: now, timeZone: zone("America/Los_Angeles"))
        let session = HelperSession(helperPath: "/nonexistent/traveltimes", environment: .empty)
        defer { session.finish() }
        let steps = Steps()
        let report = try commute.refresh(request(feed: directory.path + "/missing.json", session: session), observer: steps)
        #expect(steps.heard == ["starting feed", "finished feed", "finished planned"])
        #expect(report.feed == nil && report.feedError != nil && report.feedSaved == nil && report.feedKept != nil)
        #expect(try commute.refresh.log().failuresSinceSuccess == 1)
    }

    @Test func nothingToRefreshIsSaidBeforeAnythingIsDone() throws {
        let directory = TemporaryDirectory()
        let commute = Commute(store: try Store(directory: directory.path), now: now, timeZone: zone("America/Los_Angeles"))
        let session = HelperSession(helperPath: "/nonexistent/traveltimes", environment: .empty)
        defer { session.finish() }
        let steps = Steps()
        #expect(throws: RefreshRequest.NothingToRefresh.self) { try commute.refresh(request(feed: nil, session: session), observer: steps) }
        #expect(steps.heard.isEmpty)
        #expect(try commute.store.routes().routes.isEmpty)
    }
}
