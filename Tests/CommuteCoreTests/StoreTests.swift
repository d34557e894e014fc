@_spi(Store) @testable import CommuteCore
@testable import CommuteDelivery
@testable import CommuteModel
@_spi(Store) @testable import CommuteSources
@_spi(Store) @testable import CommuteStore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A fresh store directory under the system's temporary directory, removed afterwards.
final class TemporaryDirectory {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("traveltimes-test-\(UUID().uuidString)").path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: "\(path)/\(name)")) }

    func mode(_ name: String = "") throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: name.isEmpty ? path : "\(path)/\(name)")
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

@Suite(.ownThreads) struct StoreTests {
    let now = instant("2025-11-04T16:00:00-08:00")

    func commute(_ directory: TemporaryDirectory, lockTimeout: TimeInterval = 10) throws -> Commute {
        Commute(store: try Store(directory: directory.path, lockTimeout: lockTimeout), now: now, timeZone: zone("America/Los_Angeles"))
    }

    @Test func filesAreVersionedPrivateAndRoundTrip() throws {
        let directory = TemporaryDirectory()
        let commute = try commute(directory)
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        _ = try commute.favorites.addFavorites(["1", "96"])
        _ = try commute.schedules.addSchedule(.init())
        #expect(try directory.mode() == 0o700)
        for name in ["routes.json", "favorites.json", "schedules.json", "pending.json"] {
            #expect(try directory.mode(name) == 0o600, "\(name)")
            let object = try JSONSerialization.jsonObject(with: directory.read(name)) as? [String: Any]
            #expect(object?["version"] as? Int == 1, "\(name)")
        }
        #expect(try commute.store.routes().routes.count == 163)
        #expect(try commute.store.favorites().routeIDs == ["1", "96"])
        let schedule = try #require(try commute.store.schedules().schedules.first)
        #expect(schedule.routeIDs == ["1", "96"] && schedule.daysLabel == "Weekdays" && schedule.timeLabel == "7:00 AM")
        #expect(try commute.store.pending().requests.count == 5)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test(arguments: [
        ("{not json", "not valid JSON"),
        ("", "the file is empty"),
        ("[1, 2]", "expected a JSON object"),
        (#"{"schedules": []}"#, "no \"version\" field"),
        (#"{"version": 2, "schedules": []}"#, "unknown version 2"),
        (#"{"version": "1", "schedules": []}"#, "\"version\" is not a number"),
        (#"{"version": 1, "schedules": [{"id": "nope"}]}"#, "wrong shape"),
        (#"{"version": 1}"#, "wrong shape: schedules is missing"),
    ])
    func unreadableFilesFailWithPathAndReasonAndAreLeftUntouched(text: String, reason: String) throws {
        let directory = TemporaryDirectory()
        try directory.write("schedules.json", text)
        let before = try directory.read("schedules.json")
        let commute = try commute(directory)
        // Refresh saves the new routes (its own domain) but cannot reschedule over unreadable
        // schedules, and says which happened.
        do {
            _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
            Issue.record("a refresh rescheduled over an unreadable file")
        } catch let error as Refresh.SavedButNotPlanned {
            #expect(error.routeCount == 163)
            #expect(error.underlying is CommuteStore.StoreError)
        }
        #expect(try commute.store.routes().routes.count == 163)
        #expect(throws: CommuteStore.StoreError.self) { try commute.store.schedules() }
        do {
            _ = try commute.schedules.addSchedule(.init(routeIDs: ["1"]))
            Issue.record("a write went through over an unreadable file")
        } catch let error as CommuteStore.StoreError {
            #expect(error.description.contains(directory.path + "/schedules.json"))
            #expect(error.description.contains(reason), "\(error.description)")
        }
        #expect(try directory.read("schedules.json") == before)
        // Another domain still works.
        #expect(try commute.favorites.addFavorites(["1"]).added == ["1"])
    }

    @Test func aHeldLockMakesTheWaitEndWithTheLockNamed() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path, lockTimeout: 0.2)
        let holder = FileLock(name: "schedules", path: "\(directory.path)/.schedules.lock", timeout: 1)
        let started = Date()
        try holder.withLock {
            #expect(throws: CommuteStore.StoreError.lockTimeout(lock: "schedules", path: "\(directory.path)/.schedules.lock", seconds: 0.2)) {
                try store.updateSchedules { _ in }
            }
            // A different domain does not wait on it.
            try store.updateFavorites { $0.routeIDs.append("1") }
        }
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(try store.favorites().routeIDs == ["1"])
    }

    @Test func threadsOfOneProcessLoseNoUpdate() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try? store.updateFavorites { $0.routeIDs.append("\(index)") }
                }
            }
        }
        #expect(Set(try store.favorites().routeIDs) == Set((0..<40).map { RouteID("\($0)") }))
    }

    @Test func theStaleContentTrapRefreshedRoutesReachThePendingContent() throws {
        let directory = TemporaryDirectory()
        let commute = try commute(directory)
        let routes = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "A")
        _ = try commute.favorites.addFavorites(["1"])
        _ = try commute.schedules.addSchedule(.init(days: [.tuesday], time: TimeOfDay(hour: 16, minute: 30)))
        #expect(try commute.schedules.pendingReport().requests[0].content?.body == "Everett-Seattle: 34 min (-11 min, CLEAR)")
        var feedB = routes
        if let index = feedB.firstIndex(where: { $0.id == "1" }) { feedB[index].currentMinutes = 64 }
        _ = try commute.refresh.run(feed: WSDOTFeed.encode(feedB), source: "B")
        #expect(try commute.schedules.pendingReport().requests[0].content?.body == "Everett-Seattle: 64 min (+19 min, CONGESTED)")
    }

    @Test func aRefreshSavesEveryRouteButKeepsOnlyTheNamedOnesInMemory() throws {
        let directory = TemporaryDirectory()
        let commute = try commute(directory)
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "A")
        _ = try commute.favorites.addFavorites(["1", "96", "4"])
        _ = try commute.schedules.addSchedule(.init(routeIDs: ["96"]))
        try commute.store.updateConfiguration { $0.watches = [DelayWatch(routeID: "70", overMinutes: 10)] }
        let result = try commute.refresh.run(feed: .file(path: fixtureURL.path), source: "B")
        #expect(result.routeCount == 163 && result.noData == 3)
        #expect(Set(result.routesByID.keys) == ["1", "96", "4", "70"])
        // The cache written a piece at a time is the cache written whole.
        let routes = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        #expect(try directory.read("routes.json") == Data(RouteCache(fetchedAt: now, source: "B", routes: routes).encodeDocument()))
    }

    @Test func aScheduleAddedDuringARefreshGetsTheSavedRouteNotNoData() throws {
        let directory = TemporaryDirectory()
        let commute = try commute(directory)
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        _ = try commute.favorites.addFavorites(["1"])
        _ = try commute.schedules.addSchedule(.init(days: [.tuesday], time: TimeOfDay(hour: 16, minute: 30)))
        // As a refresh that began before the schedule existed: it kept no routes, but saved route 1.
        try commute.reschedule(routes: [:], feedIDs: ["1"])
        #expect(try commute.schedules.pendingReport().requests[0].content?.body == "Everett-Seattle: 34 min (-11 min, CLEAR)")
        // A route the feed did not have is shown without data, as before.
        try commute.reschedule(routes: [:], feedIDs: [])
        #expect(try commute.schedules.pendingReport().requests[0].content?.body != "Everett-Seattle: 34 min (-11 min, CLEAR)")
    }

    @Test func theRouteCacheIsReadThroughAMapLikeAnyFile() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let path = directory.path + "/routes.json"
        #expect(try store.routes() == RouteCache.empty)
        try directory.write("routes.json", "")
        #expect(throws: CommuteStore.StoreError.unreadable(path: path, reason: "the file is empty")) { try store.routes() }
        try directory.write("routes.json", "{not json")
        let error = #expect(throws: CommuteStore.StoreError.self) { try store.searchRoutes("everett") }
        #expect(error?.description.contains("\(path): not valid JSON") == true, "\(String(describing: error))")
        try FileManager.default.removeItem(atPath: path)
        _ = try commute(directory).refresh.run(feed: .file(path: fixtureURL.path), source: "fixture")
        #expect(try store.routes().routes == WSDOTFeed.decode(Data(contentsOf: fixtureURL)).map { route in
            var withoutEnds = route
            withoutEnds.startPoint = nil
            withoutEnds.endPoint = nil
            return withoutEnds
        })
        #expect(try store.routes(includingEndPoints: true).routes == WSDOTFeed.decode(Data(contentsOf: fixtureURL)))
        #expect(try store.searchRoutes("everett").routes.count == 16)
    }

    @Test func aFeedThatFailsPartWayLeavesTheCacheAndNoTemporaryFile() throws {
        let directory = TemporaryDirectory()
        let commute = try commute(directory)
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "A")
        let before = try directory.read("routes.json")
        // Well past the first piece written out: 400 good routes, then a broken one.
        var routes = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        routes = (0..<400).map { index in
            var route = routes[index % routes.count]
            route.id = "\(index + 1)"
            return route
        }
        let feed = String(decoding: try WSDOTFeed.encode(routes), as: UTF8.self).dropLast() + #",{"TravelTimeID":"x"}]"#
        #expect(throws: FeedError.self) { try commute.refresh.run(feed: Data(feed.utf8), source: "B") }
        #expect(try directory.read("routes.json") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }.isEmpty)
        // A failure inside the caller's own work is the same.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try commute.store.replaceRoutes(fetchedAt: now, source: "C") { _, save in
                for route in routes { try save(route) }
                throw Stop()
            }
        }
        #expect(try directory.read("routes.json") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func unfavouritingCascadesIntoSchedules() throws {
        let directory = TemporaryDirectory()
        let commute = try commute(directory)
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        _ = try commute.favorites.addFavorites(["1", "96", "4"])
        let both = try commute.schedules.addSchedule(.init(routeIDs: ["1", "96"])).schedule
        let only = try commute.schedules.addSchedule(.init(routeIDs: ["96"], days: [.monday])).schedule
        let other = try commute.schedules.addSchedule(.init(routeIDs: ["4"])).schedule
        let cascade = try commute.favorites.removeFavorites(["96"]).change
        #expect(cascade.trimmed.map(\.after.routeIDs) == [["1"]])
        #expect(cascade.trimmed.map(\.before.id) == [both.id])
        #expect(cascade.deleted.map(\.id) == [only.id])
        #expect(try commute.store.schedules().schedules.map(\.id) == [both.id, other.id])
        #expect(try commute.store.favorites().routeIDs == ["1", "4"])
        #expect(try commute.store.pending().requests.allSatisfy { $0.scheduleID != only.id })
        #expect(throws: CommuteError.notFavorite("96")) { try commute.favorites.removeFavorites(["96"]) }
    }

    @Test func schedulesMayOnlyUseFavorites() throws {
        let directory = TemporaryDirectory()
        let commute = try commute(directory)
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        #expect(throws: ModelError.noRoutes) { try commute.schedules.addSchedule(.init()) }
        _ = try commute.favorites.addFavorites(["1"])
        #expect(throws: ModelError.notFavorite("96")) { try commute.schedules.addSchedule(.init(routeIDs: ["96"])) }
        #expect(throws: ModelError.noDays) { try commute.schedules.addSchedule(.init(days: [])) }
        #expect(throws: CommuteError.duplicateRoute("1")) { try commute.schedules.addSchedule(.init(routeIDs: ["1", "1"])) }
        #expect(throws: ModelError.unknownRoute("99999")) { try commute.favorites.addFavorites(["99999"]) }
        #expect(try commute.store.schedules().schedules.isEmpty)
    }
}

/// The per-minute files are read and written without Foundation's coders, in the same format:
/// files written before read the same, and files written now read in Foundation's coders too.
@Suite(.ownThreads) struct FastDocumentCodingTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        return encoder
    }()
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try #require(ISO8601.parse(text)?.instant)
        }
        return decoder
    }()

    func check<Document: VersionedDocument & Equatable>(_ document: Document) throws {
        let ours = Data(try document.encodeDocument())
        #expect(try Document.decodeDocument(from: ours) == document)
        #expect(try Self.decoder.decode(Document.self, from: ours) == document, "Foundation reads what is written")
        #expect(try Document.decodeDocument(from: Self.encoder.encode(document)) == document, "files Foundation wrote read the same")
    }

    @Test func pendingAndLedgerRoundTrip() throws {
        let now = instant("2025-11-04T16:00:00.250-08:00")
        let calendar = ZonedCalendar(timeZone: zone("America/Los_Angeles"), around: now)
        let schedules = (0..<40).map { index in
            Schedule(routeIDs: ["1"], days: Weekday.weekdays, hour: 6 + index / 10, minute: index, createdAt: now)
        }
        let routes: [RouteID: Route] = ["1": route("1", "Quote \" and \\ and \u{1B}", current: 30, average: 20)]
        let plan = FanOut.plan(schedules: schedules, routes: routes, now: now, calendar: calendar, cap: 64)
        var book = PendingBook(plan: plan, plannedAt: now, timeZone: "America/Los_Angeles")
        book.requests[0].since = nil
        try check(book)
        try check(PendingBook.empty)
        let ledger = DeliveryLedger(entries: [
            .init(alert: .schedule(UUID(), .tuesday, headsUp: false), occurrence: now, notifier: 2, outcome: .delivered, at: now, attempts: 2,
                  reason: "resent after an interrupted tick; late by 3 min"),
            .init(alert: .watch(routeID: "70", .over), occurrence: now, notifier: nil, outcome: .suppressed, at: now, reason: nil),
        ])
        try check(ledger)
        try check(DeliveryLedger.empty)
        // A repeated key keeps its first value, as Foundation's decoder does.
        let repeated = #"{"version":1,"entries":[],"entries":[{"requestID":"x"}]}"#
        #expect(try DeliveryLedger.decodeDocument(from: Data(repeated.utf8)).entries.isEmpty)
        #expect(throws: DocumentProblem("wrong shape: entries[0].occurrence is missing")) {
            try DeliveryLedger.decodeDocument(from: Data(#"{"version":1,"entries":[{"requestID":"test.1","outcome":"delivered","at":"2025-11-04T16:00:00Z","attempts":1}]}"#.utf8))
        }
        #expect(throws: DocumentProblem("unknown version 2 (this traveltimes reads version 1)")) {
            try PendingBook.decodeDocument(from: Data(#"{"version":2,"cap":"x"}"#.utf8))
        }
    }

    /// `deferred` is written last, and tick's read stops where it begins: the scheduled requests
    /// are read whatever follows. A full read still checks it all, and an older file with
    /// `deferred` first still reads both ways. The ledger read with a horizon leaves out, and
    /// counts, what was decided before it.
    @Test func tickReadsThePlanUpToTheDeferredAndTheLedgerFromItsHorizon() throws {
        let now = instant("2025-11-04T16:00:00-08:00")
        let calendar = ZonedCalendar(timeZone: zone("America/Los_Angeles"), around: now)
        let schedules = (0..<20).map { index in
            Schedule(routeIDs: ["1"], days: Weekday.weekdays, hour: 6 + index / 10, minute: index, createdAt: now)
        }
        let plan = FanOut.plan(schedules: schedules, routes: ["1": route("1", "A", current: 30, average: 20)], now: now, calendar: calendar, cap: 10)
        let book = PendingBook(plan: plan, plannedAt: now, timeZone: "America/Los_Angeles")
        // 90 deferred; the plan lists the soonest 64 of them (the rest are worked out when needed).
        #expect(book.deferredCount == 90 && book.deferred.count == PendingBook.listedDeferred)
        #expect(book.deferred.map(\.request) == Array(plan.deferred.prefix(PendingBook.listedDeferred)))
        let text = String(decoding: try book.encodeDocument(), as: UTF8.self)
        let deferredAt = try #require(text.range(of: #""deferred":"#))
        #expect(!text[deferredAt.upperBound...].contains(#""requests":"#) && !text[deferredAt.upperBound...].contains(#""version":"#))
        // The deferred list cut off mid-way: tick's read has all it needs; a full read refuses it.
        let cut = Data(text[..<text.index(deferredAt.upperBound, offsetBy: 200)].utf8)
        let scheduled = try PendingBook.decodeDocument(from: cut, deferred: .none)
        #expect(scheduled.requests == book.requests && scheduled.deferred.isEmpty && scheduled.cap == 10)
        #expect(throws: DocumentProblem.self) { try PendingBook.decodeDocument(from: cut) }
        // The listing's read: the soonest few deferred, the rest of the file untouched.
        let second = try #require(text[deferredAt.upperBound...].ranges(of: "},{").dropFirst().first)
        let cutLater = Data(text[..<text.index(second.upperBound, offsetBy: 20)].utf8)
        let soonest = try PendingBook.decodeDocument(from: cutLater, deferred: .first(2))
        #expect(soonest.requests == book.requests && soonest.deferred == Array(book.deferred.prefix(2)))
        #expect(try PendingBook.decodeDocument(from: Data(text.utf8), deferred: .first(500)).deferred == book.deferred)
        // A file Foundation wrote (sorted keys: `deferred` first) reads both ways.
        let sorted = try Self.encoder.encode(book)
        #expect(try PendingBook.decodeDocument(from: sorted, deferred: .none).requests == book.requests)
        #expect(try PendingBook.decodeDocument(from: sorted, deferred: .first(3)) == {
            var first = book
            first.deferred = Array(book.deferred.prefix(3))
            return first
        }())
        #expect(try PendingBook.decodeDocument(from: sorted) == book)

        let old = now.addingTimeInterval(-40 * 86_400)
        let ledger = DeliveryLedger(entries: [
            .init(alert: .test(1), occurrence: old, notifier: 1, outcome: .delivered, at: old),
            .init(alert: .test(2), occurrence: now, notifier: 1, outcome: .delivered, at: now),
        ])
        var dropped = 0
        let recent = try DeliveryLedger.decodeDocument(
            from: Data(try ledger.encodeDocument()), keepingSince: now.addingTimeInterval(-DeliveryLedger.retention), dropped: &dropped)
        #expect(recent.entries.map(\.alert) == [.test(2)] && dropped == 1)

        // `delivered`'s read: entries before the window counted and passed over by their quotes
        // and brackets — a reason full of them included — and the one after it read whole.
        let week = now.addingTimeInterval(-7 * 86_400)
        let windowed = DeliveryLedger(entries: [
            .init(alert: .test(1), occurrence: old, notifier: 1, outcome: .delivered, at: old),
            .init(alert: .test(3), occurrence: week, notifier: 1, outcome: .failed, at: week, reason: #"said "}]{[\" twice"#),
            .init(alert: .test(2), occurrence: now, notifier: 1, outcome: .failed, at: now, reason: #"}"{"#),
        ])
        let bytes = try windowed.encodeDocument()
        var older = 0
        dropped = 0
        let shown = try DeliveryLedger.decodeDocument(
            from: Data(bytes), keepingSince: now.addingTimeInterval(-DeliveryLedger.retention), showingSince: now.addingTimeInterval(-60),
            dropped: &dropped, older: &older)
        #expect(shown.entries == [windowed.entries[2]] && older == 1 && dropped == 1)
        // Cut inside an entry that is passed over: refused, not read as fewer entries.
        let ledgerText = String(decoding: bytes, as: UTF8.self)
        let twice = try #require(ledgerText.range(of: "twice"))
        let cutLedger = Data(ledgerText[..<twice.lowerBound].utf8)
        #expect(throws: DocumentProblem.self) {
            try DeliveryLedger.decodeDocument(from: cutLedger, keepingSince: nil, showingSince: now, dropped: &dropped, older: &older)
        }
    }
}
