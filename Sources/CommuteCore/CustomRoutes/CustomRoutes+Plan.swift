import Basics
import CommuteModel
import FoundationEssentials
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
        let pending = try store.pending()
        let window = now.addingTimeInterval(-grace)...now.addingTimeInterval(lead)
        let soon = (pending.requests + pending.deferred).filter { entry in
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
                    label: "the \(calendar.local(arrival).time.label) arrive-by alert")
            } else {
                occasion = AskPlan.Occasion(
                    send: entry.nextFire, departure: entry.nextFire, target: nil, label: "the \(calendar.local(entry.nextFire).time.label) alert")
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
                    route.predicted(leavingAt: occasion.departure) == nil || route.custom?.predictions?.isEmpty != false,
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
}
