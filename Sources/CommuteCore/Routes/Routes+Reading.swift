@_spi(Store) import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials
@_spi(Store) import CommuteSources

extension Routes {
    /// Every route, as of now (a transit route's times are its next departure's); without the end
    /// points (`detail` reads those).
    public func all() throws -> RouteCache {
        var cache = try store.routes()
        if cache.routes.contains(where: \.isPublicTransport) { cache.routes = cache.routes.map(current) }
        return cache
    }
}

extension Commute {
    /// A route as of now. A transit route's departures are the last refresh's when now lies in
    /// the window that refresh worked out; for another moment (`--now` in the past, or past the
    /// window) they are worked out again from its timetable, for that moment and without live
    /// data — never another day's departures shown as this one's.
    func current(_ route: Route) -> Route {
        guard let transit = route.departures else { return route }
        let inWindow = now >= route.updatedAt.addingTimeInterval(-60) && now <= (transit.coveredUntil ?? .distantPast)
        guard !inWindow, let timetable = try? self.transit.loadTimetable(for: route.id) else { return route.at(now) }
        var planned = Transit.planned(route, timetable: timetable, realtime: nil, alerts: nil, at: now)
        planned.transit?.notices = nil
        return planned
    }
}

extension FavoriteRoutes {
    /// The favorites as they are saved.
    public func read() throws -> Favorites { try store.favorites() }
}

extension Schedules {
    /// The schedules as they are saved.
    public func read() throws -> ScheduleBook { try store.schedules() }
}

extension Refresh {
    /// When refreshes ran, what they reported, and each provider's requests today.
    public func log() throws -> RefreshLog { try store.refreshLog() }
}

extension Alerts {
    /// The delivery ledger: what was decided in the last `DeliveryLedger.retention`.
    public func ledger() throws -> DeliveryLedger { try store.ledger(keepingSince: ledgerHorizon) }
}

extension Health {
    /// What `doctor` checks of the store itself.
    public struct StoreCheck: Sendable {
        /// Why each unreadable file cannot be read, the configuration's first.
        public var unreadable: [any Error]
        /// The files in the store this user cannot both read and write, by name.
        public var unwritable: [String]
    }

    /// Reads every file of the store, and looks at whether each can be written.
    public func checkStore() -> StoreCheck {
        var unreadable: [any Error] = configurationError.map { [$0] } ?? []
        func read<T>(_ body: () throws -> T) {
            do { _ = try body() } catch { unreadable.append(error) }
        }
        read { try store.favorites() }
        read { try store.schedules() }
        read { try store.routeCacheHeader() }
        read { try store.pending() }
        read { try store.ledger() }
        read { try store.refreshLog() }
        read { try store.health() }
        read { try store.openAlerts() }
        let directory = store.directory
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }) ?? []
        let unwritable = files.filter { access("\(directory)/\($0)", R_OK | W_OK) != 0 }.sorted()
        return StoreCheck(unreadable: unreadable, unwritable: unwritable)
    }
}
