import Basics
@_spi(Store) import CommuteHistory
import CommuteModel
import FoundationEssentials
import Synchronization
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteSources

extension CustomRoutes {
    /// Which custom routes a refresh asks about.
    public enum CustomSelection: Sendable, Equatable {
        /// Those in play, not asked about within the minimum interval.
        case inPlay
        /// Every custom route (the minimum interval does not apply; the budget does).
        case all
        /// These (the same).
        case routes([RouteID])
    }

    /// When custom routes are asked about, and how often: `config set lead`, `min-interval`, and
    /// the budgets.
    public struct CustomPolicy: Sendable, Equatable {
        /// An alert this close puts its routes in play.
        public var lead: TimeInterval
        /// No route is asked about again this soon (for `inPlay`).
        public var minimumInterval: TimeInterval
        public var budgets: [RouteProvider: Int]
        /// Whether routes that can be are asked when their alerts need it (`AskPlan`), about the
        /// moment of leaving; false asks those in play about now, every `minimumInterval`.
        public var plansRequests: Bool

        public init(_ configuration: Configuration) {
            plansRequests = configuration.planRequests != false
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

        /// Why a route was not asked about, when that was the refresh's own choice.
        public enum Skip: Sendable, Equatable, CustomStringConvertible {
            /// `refresh --route` named others.
            case notAskedFor
            /// No alert within `lead`, not watched.
            case notInPlay(lead: TimeInterval)
            /// Asked `ago` seconds ago, within `min-interval`.
            case askedRecently(ago: TimeInterval, minimumInterval: TimeInterval)
            /// A free-flow estimate does not change with traffic: asked at most daily.
            case estimatedToday(ago: TimeInterval)
            /// Its engine failed `ago` seconds ago: not asked again within the hour.
            case engineFailing(ago: TimeInterval)
            /// The request plan does not need it now: why, in words (`AskPlan`).
            case planned(String)

            public var description: String {
                switch self {
                case .notAskedFor: "not asked for"
                case .notInPlay(let lead): "not in play: no alert within \(TimeFormatting.age(lead)), not watched"
                case .askedRecently(let ago, let minimumInterval):
                    "asked \(TimeFormatting.age(ago)) ago (min-interval \(TimeFormatting.age(minimumInterval)))"
                case .estimatedToday(let ago): "free-flow estimate \(TimeFormatting.age(ago)) old (asked at most daily)"
                case .engineFailing(let ago): "its engine failed \(TimeFormatting.age(ago)) ago (asked again after an hour)"
                case .planned(let why): "not needed now: \(why)"
                }
            }
        }

        public var routeID: RouteID
        public var provider: RouteProvider
        public var result: Result
        /// The refresh's own reason for leaving it, when it was that.
        public var skip: Skip? = nil
        /// The failure, for the exit status and the provider-wide message.
        public var failure: CustomFetchFailure?
        /// The route as saved (fetched, or as it was).
        public var route: Route
        /// Why the plan asks it (or would, in a dry run): `first ask for the 9:00 AM arrive-by alert, leaving 8:05 AM`.
        public var asked: String? = nil
        /// The answer about a planned departure, when that is what was asked.
        public var prediction: Prediction? = nil

        /// Why it was skipped or failed, in words; nil when fetched.
        public var reason: String? { skip?.description ?? failure?.description }
    }

    /// What the custom part of a refresh did.
    public struct CustomRefreshResult: Sendable, Equatable {
        /// Every custom route, in cache order.
        public var outcomes: [CustomRouteOutcome]
        /// Nil when nothing new was fetched (the alerts were not re-planned for it).
        public var reschedule: Commute.RescheduleSummary?
        /// Readings held back as outside what the route can be, and what could not be recorded.
        public var warnings: [Refresh.RefreshWarning] = []

        public var fetched: [CustomRouteOutcome] { outcomes.filter { $0.result == .fetched } }
        public var failed: [CustomRouteOutcome] { outcomes.filter { $0.result == .failed } }
        /// The routes as they now are, by ID: for the delay watches.
        public var routesByID: [RouteID: Route] { Dictionary(outcomes.map { ($0.routeID, $0.route) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// The custom routes in play now: used by an alert planned within `lead` (or due and not yet
    /// past its grace), or by an arrive-by alert whose arrival is within three hours (its leave
    /// time moves with their times), or another way of such a route's commute (the alert compares
    /// them); watched; or never fetched.
    public func customRoutesInPlay(_ routes: [Route], lead: TimeInterval) throws -> Set<RouteID> {
        let custom = Set(routes.filter(\.isProviderRoute).map(\.id))
        guard !custom.isEmpty else { return [] }
        var inPlay = Set(routes.filter { $0.custom?.fetchedAt == nil }.map(\.id))
        for watch in try store.configuration().watches ?? [] where custom.contains(watch.routeID) { inPlay.insert(watch.routeID) }
        let pending = try store.pending(deferred: .first(PendingBook.listedDeferred))
        let window = now.addingTimeInterval(-grace)...now.addingTimeInterval(lead)
        let soon = Set((try commute.plannedEntries(pending)).filter { entry in
            if let arrival = entry.arrival { return arrival > now && arrival.timeIntervalSince(now) <= Self.arriveByWindow }
            return window.contains(entry.nextFire)
        }.map(\.scheduleID))
        if !soon.isEmpty {
            var used: [RouteID] = []
            for schedule in try store.schedules().schedules + commute.calendars.departureSchedules() where schedule.isEnabled && soon.contains(schedule.id) {
                used += schedule.routeIDs
            }
            inPlay.formUnion(used.filter(custom.contains))
            // Another way can only be a favorite or a named commute's: none of those asleep, no
            // commute to look for. (One that cannot be read widens nothing.)
            let followed = (try? store.favorites()).map { Set($0.routeIDs + $0.commutes.flatMap(\.routeIDs)) } ?? []
            if !custom.subtracting(inPlay).isDisjoint(with: followed) {
                for ways in (try? commute.ways.commutes(of: used)) ?? [] { inPlay.formUnion(ways.routeIDs.filter(custom.contains)) }
            }
        }
        return inPlay
    }

    /// Asks the providers about the custom routes selected, saves what they answer (keeping every
    /// other route as it was), and re-plans the alerts when anything new came. A provider whose key
    /// is missing or rejected, or whose budget is spent, is not asked again in this refresh; its
    /// routes keep their last data. `timeout` is the deadline for all of it. `custom`: the custom
    /// routes as a feed refresh just carried them over (else the cache is read for them).
    public func refreshCustomRoutes(
        _ selection: CustomSelection, access: ProviderAccess, policy: CustomPolicy, timeout: TimeInterval, custom: [Route]? = nil
    ) throws -> CustomRefreshResult {
        let deadline = access.clock() + timeout
        let routes = try custom ?? store.routes().routes.filter(\.isProviderRoute)
        // Every route an open engine's, resting today (the common case under cron for a store of
        // estimates): nothing to weigh, nothing to ask.
        if selection == .inPlay, !routes.isEmpty {
            let rests = routes.compactMap { route in
                route.custom.flatMap(resting).map { skip in
                    CustomRouteOutcome(routeID: route.id, provider: route.provider ?? .osrm, result: .skipped, skip: skip, failure: nil, route: route)
                }
            }
            if rests.count == routes.count { return CustomRefreshResult(outcomes: rests, reschedule: nil) }
        }
        let choice = try choose(routes, selection, policy: policy, keys: Set(access.keys.filter { !$0.value.isEmpty }.keys))
        var decided = choice.decided
        let toAsk = choice.toAsk
        let asks = choice.asks
        let wanted = choice.wanted
        // Each provider's first requests are counted together, in one write: as many as its budget
        // allows, in cache order; the rest keep their data.
        let day = budgetDay
        let byProvider = Dictionary(grouping: toAsk) { routes[$0].provider ?? .tomtom }
        // Nothing to ask (every route skipped, the common case): the log is not touched.
        let granted = byProvider.isEmpty ? [:] : try store.updateRefreshLog { log in
            byProvider.mapValues { indices in
                log.reserveRequests(indices.count, to: routes[indices[0]].provider ?? .tomtom, on: day,
                    budget: policy.budgets[routes[indices[0]].provider ?? .tomtom] ?? 0)
            }
        }
        var work: [Int] = []
        for (provider, indices) in byProvider {
            let allowed = granted[provider] ?? 0
            work += indices.prefix(allowed)
            let failure = CustomFetchFailure.budgetSpent(provider, budget: policy.budgets[provider] ?? 0)
            for index in indices.dropFirst(allowed) {
                decided[index] = CustomRouteOutcome(
                    routeID: routes[index].id, provider: provider, result: .skipped, failure: failure,
                    route: routes[index])
            }
        }
        // Only the planner's routes that will be asked need their queries (and the plan read).
        let queries = try routingQueries(work.map { routes[$0] }.filter { $0.provider?.isTransit == true && asks[$0.id] == nil }, lead: policy.lead)
            .merging(asks.mapValues { [$0.query] }) { _, planned in planned }
        // A few at a time, each a wait on the network (through one fetch helper, when the client is a session).
        let state = FetchState(work: work.sorted())
        let feature = self
        // Threads of their own, not `concurrentPerform`: these wait on the network, and on two
        // cores `concurrentPerform` would run two at a time.
        // Nothing to ask (the common case under cron): no thread, no dispatch group.
        if !work.isEmpty {
            let group = DispatchGroup()
            for _ in 0..<min(Self.parallelRequests, work.count) {
                group.enter()
                startThread {
                    defer { group.leave() }
                    fetch()
                }
            }
            group.wait()
        }
        @Sendable func fetch() {
            while let index = state.next() {
                guard case .provider(let custom) = routes[index].kind else { continue }
                if let failure = state.stopped(custom.provider) {
                    state.record(index, .failure(failure), unsent: custom.provider)
                    continue
                }
                do {
                    let asked = queries[routes[index].id] ?? []
                    var result = try feature.measure(
                        custom, access: access, budget: policy.budgets[custom.provider] ?? 0, deadline: deadline, reserved: true,
                        query: asked.first)
                    // A planner asked about a second alert's time too: its itineraries join the first's.
                    for query in asked.dropFirst() {
                        guard case .success(var first) = result else { break }
                        let more = try feature.measure(
                            custom, access: access, budget: policy.budgets[custom.provider] ?? 0, deadline: deadline, query: query)
                        guard case .success(let second) = more else { continue }
                        first.itineraries = Self.joined(first.itineraries ?? [], second.itineraries ?? [])
                        result = .success(first)
                    }
                    // The answer moved an arrive-by alert's departure: asked once more about the new one.
                    if case .success(let first) = result, let ask = asks[routes[index].id],
                        let next = AskPlan.converge(
                            after: ask, answered: Self.measured(routes[index], first, at: feature.now, queries: [ask.query]), now: feature.now),
                        case .success(let second) = try feature.measure(
                            custom, access: access, budget: policy.budgets[custom.provider] ?? 0, deadline: deadline, query: next.query)
                    {
                        state.converged(index, query: next.query, second)
                    }
                    // Its reserved first request was never sent: it is given back.
                    let unsent: RouteProvider? = if case .failure(.notAsked) = result { custom.provider } else { nil }
                    state.record(index, result, unsent: unsent)
                } catch {
                    state.fail(error)
                }
            }
        }
        let results = state.results
        let converged = state.convergedAnswers
        var readings: [(routeID: RouteID, record: HistoryRecord)] = []
        var warnings: [Refresh.RefreshWarning] = []
        var unsent = state.unsentRequests
        // Work left undone after an error was reserved and never sent.
        for index in work where results[index] == nil {
            if let provider = routes[index].provider { unsent[provider, default: 0] += 1 }
        }
        if unsent.values.contains(where: { $0 > 0 }) {
            try store.updateRefreshLog { log in
                for (provider, count) in unsent { log.releaseRequests(count, to: provider, on: day) }
            }
        }
        if let error = state.error { throw error }
        // The lines engines drew, for the incident feed.
        var lines: [RouteID: RouteLine] = [:]
        for (index, result) in results {
            let route = routes[index]
            guard case .provider(let custom) = route.kind else { continue }
            switch result {
            case .success(let measurement):
                if let line = measurement.line { lines[route.id] = line }
                var answered = Self.measured(route, measurement, at: now, queries: queries[route.id] ?? [])
                var lastQuery = queries[route.id]?.first
                if let (query, second) = converged[index] {
                    answered = Self.measured(answered, second, at: now, queries: [query])
                    lastQuery = query
                }
                let prediction = lastQuery.flatMap { query in
                    query.leavingNow || !custom.provider.predictsTraffic ? nil : answered.predicted(leavingAt: query.time)
                }
                // Only predictions for later: not a reading of now, nothing for history.
                if custom.provider.predictsTraffic, lastQuery?.leavingNow == false, queries[route.id]?.first?.leavingNow == false {
                    decided[index] = CustomRouteOutcome(
                        routeID: route.id, provider: custom.provider, result: .fetched, failure: nil, route: answered,
                        asked: asks[route.id]?.reason(calendar: calendar), prediction: prediction)
                    continue
                }
                // Judged against its history, and recorded (when history is on).
                let (judged, record) = commute.history.judge(
                    named(answered), history: commute.history.recordsHistory ? (try? store.history.contents(of: route.id)) : nil,
                    previous: route)
                // A free-flow estimate is not a measurement: history keeps what traffic did.
                if commute.history.recordsHistory, !custom.provider.isFreeFlow, let record { readings.append((route.id, record)) }
                if judged.suspiciousMinutes != nil { warnings.append(History.heldBack(judged)) }
                decided[index] = CustomRouteOutcome(
                    routeID: route.id, provider: custom.provider, result: .fetched, failure: nil, route: judged,
                    asked: asks[route.id]?.reason(calendar: calendar), prediction: prediction)
            case .failure(let failure):
                var tried = route
                if !failure.isSkip { tried.custom?.triedAt = now }
                decided[index] = CustomRouteOutcome(
                    routeID: route.id, provider: custom.provider, result: failure.isSkip ? .skipped : .failed, failure: failure, route: tried)
            }
        }
        var outcomes = routes.indices.compactMap { decided[$0] }
        // A route with an engine to fall back on: why its provider has no live time now (or that it
        // has again), and a free-flow estimate when it has none from today.
        var fellBack = Set<RouteID>()
        for index in outcomes.indices where outcomes[index].route.custom?.fallback != nil && wanted.contains(outcomes[index].routeID) {
            var route = outcomes[index].route
            let problem: String? = switch outcomes[index].result {
            case .fetched: nil
            case .failed: outcomes[index].failure?.description
            case .skipped: outcomes[index].failure.flatMap { $0.isBudget ? $0.description : nil } ?? route.custom?.liveProblem
            }
            if route.custom?.liveProblem != problem {
                route.custom?.liveProblem = problem
                fellBack.insert(route.id)
            }
            if let estimated = try refreshEstimate(of: &route, access: access, policy: policy, deadline: deadline, lines: &lines), estimated {
                fellBack.insert(route.id)
            }
            outcomes[index].route = route
        }
        // What was asked about is saved; a route edited or removed meanwhile is left as it now is.
        let asked = Dictionary(
            outcomes.filter { $0.result != .skipped || fellBack.contains($0.routeID) }.map { ($0.routeID, $0.route) },
            uniquingKeysWith: { first, _ in first })
        if !asked.isEmpty {
            try store.updateCustomRoutes { routes in
                for index in routes.indices {
                    guard let new = asked[routes[index].id], case .provider(let current) = routes[index].kind, case .provider(let answered) = new.kind,
                        current.isSameRoute(as: answered)
                    else { continue }
                    routes[index] = new
                }
            }
        }
        commute.incidents.keepLines(lines)
        var result = CustomRefreshResult(outcomes: outcomes, reschedule: nil, warnings: warnings + commute.history.record(readings))
        try recordProviderHealth(outcomes)
        if !result.fetched.isEmpty || !fellBack.isEmpty { result.reschedule = try commute.reschedule() }
        return result
    }

    /// Why an open engine's route is not asked now, whatever is in play: its estimate is from the
    /// last day (asked at most daily), or its engine failed within the hour (never hammered).
    func resting(_ custom: Route.Custom) -> CustomRouteOutcome.Skip? {
        guard custom.provider.isFreeFlow else { return nil }
        if let fetched = custom.fetchedAt, fetched <= now, now.timeIntervalSince(fetched) < Self.freeFlowInterval {
            return .estimatedToday(ago: now.timeIntervalSince(fetched))
        }
        if let tried = custom.triedAt, tried <= now, tried > (custom.fetchedAt ?? .distantPast), now.timeIntervalSince(tried) < Self.failingEngineInterval {
            return .engineFailing(ago: now.timeIntervalSince(tried))
        }
        return nil
    }

    /// Keeps `RefreshLog.failingProviders` for the health alerts: a provider that answered leaves
    /// it; one whose every request failed joins it (keeping when it began). Skips (a spent budget,
    /// time run out) say nothing either way. Written only when it changes.
    private func recordProviderHealth(_ outcomes: [CustomRouteOutcome]) throws {
        let byProvider = Dictionary(grouping: outcomes, by: \.provider)
        let answered = Set(byProvider.filter { $0.value.contains { $0.result == .fetched } }.keys)
        let failed = byProvider.compactMapValues { results in
            results.contains { $0.result == .fetched } ? nil : results.first { $0.result == .failed }?.failure?.description
        }
        // Only an answer or a failure can change it.
        guard !answered.isEmpty || !failed.isEmpty else { return }
        let current = ((try? store.refreshLog()) ?? .empty).failingProviders ?? [:]
        guard answered.contains(where: { current[$0.rawValue] != nil })
            || failed.contains(where: { current[$0.key.rawValue]?.reason != $0.value })
        else { return }
        try store.updateRefreshLog { log in
            var failing = log.failingProviders ?? [:]
            for provider in answered { failing[provider.rawValue] = nil }
            for (provider, reason) in failed {
                // The same failure, or another: the spell began with the first.
                failing[provider.rawValue] = RefreshLog.ProviderFailure(since: failing[provider.rawValue]?.since ?? now, reason: reason)
            }
            log.failingProviders = failing.isEmpty ? nil : failing
        }
    }
}

extension CustomRoutes {
    /// How long before an arrival its routes are in play.
    static let arriveByWindow: TimeInterval = 3 * 3_600

    /// How often a free-flow estimate is asked for, and how long a failing engine is left alone.
    public static let freeFlowInterval: TimeInterval = 86_400
    public static let failingEngineInterval: TimeInterval = 3_600

    /// How many custom routes are asked about at once.
    public static let parallelRequests = 4
}

extension CustomRoutes {
    /// Notes in the refresh log that `provider`'s budget is spent today; whether that is news (the
    /// first time today), so that a quiet refresh says it once a day.
    public func noteBudgetSpent(_ provider: RouteProvider) throws -> Bool {
        try store.updateRefreshLog { $0.reportBudgetSpent(provider, on: budgetDay) }
    }
}
