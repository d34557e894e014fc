import Basics
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore

extension CustomRoutes {
    /// The routes the request plan decides for (`AskPlan`): a car provider that predicts traffic,
    /// or a transit planner, asked before and not watched. Watched routes, routes never asked and
    /// open engines keep the in-play rule (a watch wants readings of now; an estimate is daily).
    func plannedRoutes(_ routes: [Route], policy: CustomPolicy) throws -> [Route] {
        guard policy.plansRequests else { return [] }
        let watched = Set((try store.configuration().watches ?? []).map(\.routeID))
        return routes.filter { route in
            guard case .provider(let custom) = route.kind, custom.fetchedAt != nil, !watched.contains(route.id) else { return false }
            return custom.provider.predictsTraffic || custom.provider.isTransit
        }
    }

    /// The alerts ahead, by route: each planned request an arrive-by alert whose arrival is within
    /// three hours, or a fixed alert within `lead` (the heads-ups ride on their leave alerts).
    func occasions(for routeIDs: Set<RouteID>, lead: TimeInterval) throws -> [RouteID: [AskPlan.Occasion]] {
        guard !routeIDs.isEmpty else { return [:] }
        let pending = try store.pending(deferred: .first(PendingBook.listedDeferred))
        let window = now.addingTimeInterval(-grace)...now.addingTimeInterval(lead)
        let soon = (try commute.plannedEntries(pending)).filter { entry in
            guard !entry.isHeadsUp else { return false }
            if let arrival = entry.arrival { return arrival > now && arrival.timeIntervalSince(now) <= Self.arriveByWindow }
            return window.contains(entry.nextFire)
        }
        guard !soon.isEmpty else { return [:] }
        let schedules = Dictionary(
            (try store.schedules().schedules + commute.calendars.departureSchedules()).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var occasions: [RouteID: [AskPlan.Occasion]] = [:]
        for entry in soon {
            guard let schedule = schedules[entry.scheduleID], schedule.isEnabled else { continue }
            let occasion: AskPlan.Occasion
            if let arrival = entry.arrival {
                let spare: TimeInterval = if case .arriveBy(let minutes, _) = schedule.timing { TimeInterval(minutes * 60) } else { 0 }
                occasion = AskPlan.Occasion(
                    send: entry.nextFire, departure: entry.nextFire, target: arrival.addingTimeInterval(-spare),
                    label: "the \(calendar.local(arrival).time.label) arrive-by alert", opens: arrival.addingTimeInterval(-Self.arriveByWindow))
            } else {
                occasion = AskPlan.Occasion(
                    send: entry.nextFire, departure: entry.nextFire, target: nil, label: "the \(calendar.local(entry.nextFire).time.label) alert",
                    opens: entry.nextFire.addingTimeInterval(-lead))
            }
            for id in schedule.routeIDs where routeIDs.contains(id) && occasions[id]?.contains(occasion) != true {
                occasions[id, default: []].append(occasion)
            }
        }
        return occasions
    }

    /// What the plan says now for each planned route, by ID.
    func askPlan(_ planned: [Route], lead: TimeInterval) throws -> [RouteID: AskPlan.Decision] {
        let occasions = try occasions(for: Set(planned.map(\.id)), lead: lead)
        let typical = commute.history.typicalLookup
        return Dictionary(planned.map { route in
            // An arrive-by alert's first question is about the departure its history would choose,
            // where the route has no prediction near: the answer then moves it least.
            let guessed = (occasions[route.id] ?? []).map { occasion -> AskPlan.Occasion in
                guard let target = occasion.target, route.provider?.predictsTraffic == true,
                    !(route.custom?.predictions ?? []).contains(where: { $0.askedAt >= occasion.opens }),
                    let usual = typical(route.id, occasion.departure)
                else { return occasion }
                var guessed = occasion
                guessed.departure = target.addingTimeInterval(-(usual.median * 60).rounded())
                return guessed
            }
            return (route.id, AskPlan.decide(route, occasions: guessed, now: now))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Why the plan does not ask now, in words: `asked 6:02 AM; next at 7:53 AM, before the 9:00 AM
    /// arrive-by alert`, or `no alert ahead needs it`.
    func waitReason(last: Date?, next: Date?, occasion: AskPlan.Occasion?) -> String {
        let asked = last.map { "asked \(TimeFormatting.moment($0, relativeTo: now, calendar: calendar))" }
        guard let occasion else { return [asked, "no alert ahead needs it"].compactMap { $0 }.joined(separator: "; ") }
        guard let next else { return [asked, "its answer serves \(occasion.label)"].compactMap { $0 }.joined(separator: "; ") }
        return [asked, "next at \(calendar.local(next).time.label), before \(occasion.label)"].compactMap { $0 }.joined(separator: "; ")
    }

    /// What a refresh does with each custom route before it asks: the routes not asked and why,
    /// in cache order; those to ask; the plan's question for each it asks; the routes wanted.
    struct Choice {
        var decided: [Int: CustomRouteOutcome]
        var toAsk: [Int]
        var asks: [RouteID: AskPlan.Ask]
        var wanted: Set<RouteID>
    }

    /// Chooses, as `refreshCustomRoutes` does, what to ask (`keys`: the providers with a key).
    /// Reads only: `refresh --dry-run` says it and asks nothing.
    func choose(_ routes: [Route], _ selection: CustomSelection, policy: CustomPolicy, keys: Set<RouteProvider>) throws -> Choice {
        // The request plan's routes are asked when their alerts need it (`AskPlan`); the others when
        // in play. An estimate asked for today, or a failing engine, is not asked whatever is in
        // play: when that is every route, the pending plan is not even read.
        let awake = routes.filter { $0.custom.flatMap(resting) == nil }
        let plan = selection == .inPlay ? try askPlan(try plannedRoutes(awake, policy: policy), lead: policy.lead) : [:]
        let asks = plan.compactMapValues { decision -> AskPlan.Ask? in if case .ask(let ask) = decision { ask } else { nil } }
        let wanted: Set<RouteID>
        switch selection {
        case .inPlay: wanted = try customRoutesInPlay(awake.filter { plan[$0.id] == nil }, lead: policy.lead).union(asks.keys)
        case .all: wanted = Set(routes.map(\.id))
        case .routes(let ids):
            let known = Set(routes.map(\.id))
            for id in ids where !known.contains(id) {
                throw try store.routes().byID[id] != nil ? CommuteError.notCustom(id) as any Error : ModelError.unknownRoute(id)
            }
            wanted = Set(ids)
        }
        // In cache order: what is not asked about, and why; then what is.
        var decided: [Int: CustomRouteOutcome] = [:]
        var toAsk: [Int] = []
        for (index, route) in routes.enumerated() {
            guard case .provider(let custom) = route.kind else { continue }
            func skip(_ skip: CustomRouteOutcome.Skip) {
                decided[index] = CustomRouteOutcome(
                    routeID: route.id, provider: custom.provider, result: .skipped, skip: skip, failure: nil,
                    route: route)
            }
            if case .routes = selection, !wanted.contains(route.id) {
                skip(.notAskedFor)
            } else if let resting = resting(custom) {
                skip(resting)
            } else if case .wait(let last, let next, let occasion)? = plan[route.id] {
                skip(.planned(waitReason(last: last, next: next, occasion: occasion)))
            } else if !wanted.contains(route.id) {
                skip(.notInPlay(lead: policy.lead))
            } else if selection == .inPlay, asks[route.id] == nil, let tried = custom.triedAt, tried <= now, now.timeIntervalSince(tried) < policy.minimumInterval {
                skip(.askedRecently(ago: now.timeIntervalSince(tried), minimumInterval: policy.minimumInterval))
            } else if custom.provider.needsKey, !keys.contains(custom.provider) {
                let failure = CustomFetchFailure.noKey(custom.provider)
                decided[index] = CustomRouteOutcome(
                    routeID: route.id, provider: custom.provider, result: failure.isSkip ? .skipped : .failed, failure: failure, route: route)
            } else {
                toAsk.append(index)
            }
        }
        return Choice(decided: decided, toAsk: toAsk, asks: asks, wanted: wanted)
    }
}

extension CustomRoutes {
    /// What a refresh would do with one custom route now.
    public struct PlannedRequest: Sendable, Equatable {
        public var routeID: RouteID
        public var provider: RouteProvider
        public var wouldAsk: Bool
        /// Why, in words: `first ask for the 9:00 AM arrive-by alert, leaving 8:05 AM`.
        public var reason: String
    }

    /// What a refresh would ask now, and why, in cache order: nothing is asked and nothing written
    /// (`refresh --dry-run`). `keys`: the providers that have a key.
    public func plannedRequests(_ selection: CustomSelection, policy: CustomPolicy, keys: Set<RouteProvider>) throws -> [PlannedRequest] {
        let routes = try store.routes().routes.filter(\.isProviderRoute)
        let choice = try choose(routes, selection, policy: policy, keys: keys)
        let log = (try? store.refreshLog()) ?? .empty
        var left = Dictionary(uniqueKeysWithValues: RouteProvider.allCases.map { ($0, max(0, policy.budgets[$0, default: 0] - log.requests(to: $0, on: budgetDay))) })
        let watched = Set((try store.configuration().watches ?? []).map(\.routeID))
        return routes.indices.compactMap { index in
            let route = routes[index]
            guard let provider = route.provider else { return nil }
            if let outcome = choice.decided[index] {
                return PlannedRequest(routeID: route.id, provider: provider, wouldAsk: false, reason: outcome.reason ?? "not asked")
            }
            guard choice.toAsk.contains(index) else { return nil }
            guard left[provider, default: 0] > 0 else {
                return PlannedRequest(
                    routeID: route.id, provider: provider, wouldAsk: false,
                    reason: CustomFetchFailure.budgetSpent(provider, budget: policy.budgets[provider, default: 0]).description)
            }
            left[provider, default: 0] -= 1
            let reason: String = if let ask = choice.asks[route.id] {
                ask.reason(calendar: calendar)
            } else {
                switch selection {
                case .all: "--all asks every custom route"
                case .routes: "asked for with --route"
                case .inPlay where route.custom?.fetchedAt == nil: "never asked yet"
                case .inPlay where watched.contains(route.id): "watched (a delay watch wants a reading of now)"
                case .inPlay:
                    policy.plansRequests && !provider.isFreeFlow ? "in play" : "in play: an alert within \(TimeFormatting.age(policy.lead)), asked over min-interval ago"
                }
            }
            return PlannedRequest(routeID: route.id, provider: provider, wouldAsk: true, reason: reason)
        }
    }
}
