import Foundation

extension Commute {
    /// Which custom routes a refresh asks about.
    public enum CustomSelection: Sendable, Equatable {
        /// Those in play, not asked about within the minimum interval.
        case inPlay
        /// Every custom route (the minimum interval does not apply; the budget does).
        case all
        /// These (the same).
        case routes([String])
    }

    /// When custom routes are asked about, and how often: `config set lead`, `min-interval`, and
    /// the budgets.
    public struct CustomPolicy: Sendable, Equatable {
        /// An alert this close puts its routes in play.
        public var lead: TimeInterval
        /// No route is asked about again this soon (for `inPlay`).
        public var minimumInterval: TimeInterval
        public var budgets: [RouteProvider: Int]

        public init(_ configuration: Configuration) {
            lead = TimeInterval((configuration.leadMinutes ?? Configuration.defaultLeadMinutes) * 60)
            minimumInterval = TimeInterval((configuration.minIntervalMinutes ?? Configuration.defaultMinIntervalMinutes) * 60)
            budgets = Dictionary(uniqueKeysWithValues: RouteProvider.allCases.map { ($0, configuration.budget(for: $0)) })
        }
    }

    /// What a refresh did with one custom route.
    public struct CustomRouteOutcome: Sendable, Equatable {
        public enum Result: String, Sendable {
            case fetched, skipped, failed
        }

        public var routeID: String
        public var provider: RouteProvider
        public var result: Result
        /// Why it was skipped or failed; nil when fetched.
        public var reason: String?
        /// The failure, for the exit status and the provider-wide message.
        public var failure: CustomFetchFailure?
        /// The route as saved (fetched, or as it was).
        public var route: Route
    }

    /// What the custom part of a refresh did.
    public struct CustomRefreshResult: Sendable, Equatable {
        /// Every custom route, in cache order.
        public var outcomes: [CustomRouteOutcome]
        /// Nil when nothing new was fetched (the alerts were not re-planned for it).
        public var reschedule: RescheduleSummary?

        public var fetched: [CustomRouteOutcome] { outcomes.filter { $0.result == .fetched } }
        public var failed: [CustomRouteOutcome] { outcomes.filter { $0.result == .failed } }
        /// The routes as they now are, by ID: for the delay watches.
        public var routesByID: [String: Route] { Dictionary(outcomes.map { ($0.routeID, $0.route) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// The custom routes in play now: used by an alert planned within `lead` (or due and not yet
    /// past its grace), watched, or never fetched.
    public func customRoutesInPlay(_ routes: [Route], lead: TimeInterval) throws -> Set<String> {
        let custom = Set(routes.filter { $0.custom != nil }.map(\.id))
        guard !custom.isEmpty else { return [] }
        var inPlay = Set(routes.filter { $0.custom?.fetchedAt == nil }.map(\.id))
        for watch in try store.configuration().watches ?? [] where custom.contains(watch.routeID) { inPlay.insert(watch.routeID) }
        let pending = try store.pending()
        let window = now.addingTimeInterval(-grace)...now.addingTimeInterval(lead)
        let soon = Set((pending.requests + pending.deferred).filter { window.contains($0.nextFire) }.map(\.scheduleID))
        if !soon.isEmpty {
            for schedule in try store.schedules().schedules where schedule.isEnabled && soon.contains(schedule.id) {
                inPlay.formUnion(schedule.routeIDs.filter(custom.contains))
            }
        }
        return inPlay
    }

    /// Asks the providers about the custom routes selected, saves what they answer (keeping every
    /// other route as it was), and re-plans the alerts when anything new came. A provider whose key
    /// is missing or rejected, or whose budget is spent, is not asked again in this refresh; its
    /// routes keep their last data. `timeout` is the deadline for all of it.
    public func refreshCustomRoutes(
        _ selection: CustomSelection, access: ProviderAccess, policy: CustomPolicy, timeout: TimeInterval
    ) throws -> CustomRefreshResult {
        let deadline = access.clock() + timeout
        let routes = try store.routes().routes.filter { $0.custom != nil }
        let wanted: Set<String>
        switch selection {
        case .inPlay: wanted = try customRoutesInPlay(routes, lead: policy.lead)
        case .all: wanted = Set(routes.map(\.id))
        case .routes(let ids):
            let known = Set(routes.map(\.id))
            for id in ids where !known.contains(id) { throw CommuteError.notCustom(id) }
            wanted = Set(ids)
        }
        var outcomes: [CustomRouteOutcome] = []
        var stopped: [RouteProvider: CustomFetchFailure] = [:]
        for route in routes {
            guard let custom = route.custom else { continue }
            func outcome(_ result: CustomRouteOutcome.Result, _ reason: String?, _ failure: CustomFetchFailure? = nil) -> CustomRouteOutcome {
                CustomRouteOutcome(routeID: route.id, provider: custom.provider, result: result, reason: reason, failure: failure, route: route)
            }
            guard wanted.contains(route.id) else {
                if case .routes = selection {
                    outcomes.append(outcome(.skipped, "not asked for"))
                } else {
                    outcomes.append(outcome(.skipped, "not in play: no alert within \(TimeFormatting.age(policy.lead)), not watched"))
                }
                continue
            }
            if selection == .inPlay, let tried = custom.triedAt, now.timeIntervalSince(tried) < policy.minimumInterval, tried <= now {
                outcomes.append(outcome(
                    .skipped, "asked \(TimeFormatting.age(now.timeIntervalSince(tried))) ago (min-interval \(TimeFormatting.age(policy.minimumInterval)))"))
                continue
            }
            if let failure = stopped[custom.provider] {
                outcomes.append(outcome(failure.isBudget ? .skipped : .failed, failure.description, failure))
                continue
            }
            let budget = policy.budgets[custom.provider] ?? custom.provider.defaultBudget
            switch try measure(custom, access: access, budget: budget, deadline: deadline) {
            case .success(let measurement):
                var fetched = outcome(.fetched, nil)
                fetched.route = Self.measured(route, measurement, at: now)
                outcomes.append(fetched)
            case .failure(let failure):
                if failure.isProviderWide { stopped[custom.provider] = failure }
                if failure.isBudget {
                    outcomes.append(outcome(.skipped, failure.description, failure))
                } else {
                    var failed = outcome(.failed, failure.description, failure)
                    failed.route.custom?.triedAt = now
                    outcomes.append(failed)
                }
            }
        }
        // What was asked about is saved; a route edited or removed meanwhile is left as it now is.
        let asked = Dictionary(
            outcomes.filter { $0.result != .skipped }.map { ($0.routeID, $0.route) }, uniquingKeysWith: { first, _ in first })
        if !asked.isEmpty {
            try store.updateCustomRoutes { routes in
                for index in routes.indices {
                    guard let new = asked[routes[index].id], let current = routes[index].custom, let answered = new.custom,
                        current.isSameRoute(as: answered)
                    else { continue }
                    routes[index] = new
                }
            }
        }
        var result = CustomRefreshResult(outcomes: outcomes, reschedule: nil)
        if !result.fetched.isEmpty { result.reschedule = try reschedule() }
        return result
    }
}
