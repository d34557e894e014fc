import CommuteDelivery
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteSources

/// The notifiers and delay watches, kept in `config.json`: each change is read, made and saved
/// under the configuration lock, so that two commands at once both land.
extension Notifiers {
    /// Adds a notifier, numbered one past the highest so far; its name, if any, is its own.
    public func addNotifier(_ kind: Notifier.Kind, name: String? = nil) throws -> Notifier {
        try store.updateConfiguration { configuration in
            var notifiers = configuration.notifiers ?? []
            if let name, notifiers.contains(where: { $0.name?.lowercased() == name.lowercased() }) {
                throw CommuteError.notifierNameTaken(name)
            }
            let notifier = Notifier(id: (notifiers.map(\.id).max() ?? 0) + 1, kind: kind, name: name)
            notifiers.append(notifier)
            configuration.notifiers = notifiers
            return notifier
        }
    }

    /// Removes the notifier numbered `id`; nil when there is none (another command removed it).
    @discardableResult
    public func removeNotifier(_ id: Int) throws -> Notifier? {
        try store.updateConfiguration { configuration in
            guard let index = configuration.notifiers?.firstIndex(where: { $0.id == id }) else { return nil }
            return configuration.notifiers?.remove(at: index)
        }
    }

    /// Watches the route `id` for delays of `minutes` or more (with `overUsual`, for times over
    /// its usual 90th percentile, `minutes` standing in where history is thin), replacing its
    /// watch if it had one. Returns the route, as the cache has it.
    public func watch(_ id: RouteID, overMinutes minutes: Int, overUsual: Bool = false, notify names: [String]? = nil) throws -> Route {
        let routes = try store.routes().byID
        guard !routes.isEmpty else { throw CommuteError.noRouteData }
        guard let route = routes[id] else { throw ModelError.unknownRoute(id) }
        try store.updateConfiguration { configuration in
            try Schedules.checkNotifierNames(names, in: configuration)
            var watches = configuration.watches ?? []
            watches.removeAll { $0.routeID == id }
            watches.append(DelayWatch(routeID: id, overMinutes: minutes, overUsual: overUsual ? true : nil, notify: names))
            configuration.watches = watches
        }
        return route
    }

    /// Stops watching the route `id`; false when it was not watched.
    @discardableResult
    public func unwatch(_ id: RouteID) throws -> Bool {
        try store.updateConfiguration { configuration in
            guard configuration.watches?.contains(where: { $0.routeID == id }) == true else { return false }
            configuration.watches?.removeAll { $0.routeID == id }
            return true
        }
    }
}
