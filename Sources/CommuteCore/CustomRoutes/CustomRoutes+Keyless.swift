import CommuteModel
import CommuteSources
import FoundationEssentials
@_spi(Store) import CommuteStore

/// What a refresh asks the keyless services: a planner's queries for the alerts in play, the names
/// its ends go by, and a fallback engine's daily estimate.
extension CustomRoutes {
    /// What a transit planner is asked for each of `routes` (its itineraries answer one time): the
    /// soonest arrive-by alert's arrival, and the soonest fixed-time alert's time — both when both
    /// are in play, as each alert needs its own answer — and for a route no alert names yet, now.
    func routingQueries(_ routes: [Route], lead: TimeInterval) throws -> [RouteID: [RoutingQuery]] {
        guard !routes.isEmpty else { return [:] }
        let ids = Set(routes.map(\.id))
        let pending = try store.pending(deferred: .first(PendingBook.listedDeferred))
        let window = now.addingTimeInterval(-grace)...now.addingTimeInterval(lead)
        let soon = (try commute.plannedEntries(pending)).filter { entry in
            if let arrival = entry.arrival { return arrival > now && arrival.timeIntervalSince(now) <= Self.arriveByWindow }
            return window.contains(entry.nextFire)
        }.sorted { $0.nextFire < $1.nextFire }
        var queries: [RouteID: [RoutingQuery]] = [:]
        if !soon.isEmpty {
            let schedules = Dictionary((try store.schedules().schedules + commute.calendars.departureSchedules()).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for entry in soon {
                guard let schedule = schedules[entry.scheduleID], schedule.isEnabled else { continue }
                // Arriving with the minutes to spare: the planner's last itinerary is the one to take.
                let spare: TimeInterval = if case .arriveBy(let minutes, _) = schedule.timing { TimeInterval(minutes * 60) } else { 0 }
                let query = entry.arrival.map { RoutingQuery(time: $0.addingTimeInterval(-spare), arriveBy: true) }
                    ?? RoutingQuery(time: max(now, entry.nextFire), arriveBy: false)
                for id in schedule.routeIDs where ids.contains(id) && !(queries[id] ?? []).contains(where: { $0.arriveBy == query.arriveBy }) {
                    queries[id, default: []].append(query)
                }
            }
        }
        for id in ids where queries[id] == nil { queries[id] = [.now(now)] }
        // The arrive-by question first: its answer is the one the plan rests on.
        return queries.mapValues { $0.sorted { $0.arriveBy && !$1.arriveBy } }
    }

    /// A planner's route with its ends named as the places saved there (`home`), else as the
    /// start and the destination.
    func named(_ route: Route) -> Route {
        guard case .provider(let custom) = route.kind, custom.provider.isTransit else { return route }
        var route = route
        route.transit?.fromName = commute.places.name(of: custom.from) ?? "your start"
        route.transit?.toName = commute.places.name(of: custom.to) ?? "your destination"
        return route
    }

    /// Asks a route's fallback engine for its free-flow estimate when it has none from the last
    /// day (at most daily, as the engines ask). True when a new estimate came, false when the
    /// engine was asked and failed (the old estimate stays), nil when it was not asked.
    func refreshEstimate(
        of route: inout Route, access: ProviderAccess, policy: CustomPolicy, deadline: TimeInterval, lines: inout [RouteID: RouteLine]
    ) throws -> Bool? {
        guard case .provider(let custom) = route.kind, let engine = custom.fallback else { return nil }
        if let estimated = custom.estimatedAt, estimated <= now, now.timeIntervalSince(estimated) < Self.freeFlowInterval { return nil }
        let asking = Route.Custom(provider: engine, from: custom.from, to: custom.to)
        guard case .success(let measurement) = try measure(asking, access: access, budget: policy.budgets[engine] ?? 0, deadline: deadline) else {
            return false
        }
        if let line = measurement.line { lines[route.id] = line }
        route.custom?.estimateMinutes = measurement.currentMinutes
        route.custom?.estimatedAt = now
        return true
    }
}
