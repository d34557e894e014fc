import Basics
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

/// What a provider's requests cost per alert: its requests over the last seven local days
/// (today's included) against the alerts delivered in them on schedules that use its routes, and
/// this month at that pace against its budget. `status` and `doctor` say it.
public struct RequestCost: Sendable, Equatable {
    public var provider: RouteProvider
    /// Requests over the days counted.
    public var requests: Int
    /// Alerts delivered in those days (each once, whatever the notifiers; a heads-up rides on its
    /// leave alert) on a schedule with one of its routes.
    public var alerts: Int
    /// The days counted: seven, or fewer when the counts began later.
    public var days: Int
    /// This month's requests so far and at the week's pace for the days left.
    public var projected: Int
    /// The daily budget times the days of this month.
    public var monthBudget: Int

    /// `2.2`; nil with no alert delivered.
    public var perAlert: Double? { alerts > 0 ? Double(requests) / Double(alerts) : nil }

    /// `TomTom 2.2 requests per delivered alert over 7 days (44 requests, 20 alerts); this month
    /// ~190 of 77,500 at this pace`, or `TomTom 1 request over 1 day, no alert delivered; …`.
    public var summary: String {
        let span = "over \(days) day\(days == 1 ? "" : "s")"
        let month = "this month ~\(Self.grouped(projected)) of \(Self.grouped(monthBudget)) at this pace"
        guard let perAlert else {
            return "\(provider.displayName) \(requests) request\(requests == 1 ? "" : "s") \(span), no alert delivered; \(month)"
        }
        return "\(provider.displayName) \(String(cFormat: "%.1f", perAlert)) requests per delivered alert \(span) "
            + "(\(requests) request\(requests == 1 ? "" : "s"), \(alerts) alert\(alerts == 1 ? "" : "s")); \(month)"
    }

    /// `77,500`.
    static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        return (number < 0 ? "-" : "") + ([Substring(digits)] + groups).joined(separator: ",")
    }

    /// The days a week's cost is counted over.
    public static let week = 7
}

extension Health {
    /// Each provider's cost per alert, for the providers with requests in the last seven days;
    /// empty when none has any (or the refresh log cannot be read).
    public func requestCosts() -> [RequestCost] {
        guard let log = try? store.refreshLog() else { return [] }
        let today = commute.today
        let days = (0..<RequestCost.week).map { CivilDate(dayNumber: today.dayNumber - $0).iso }
        let counted = days.filter { day in log.providerRequests?.day == day || log.earlierRequests?.contains { $0.day == day } == true }
        let used = RouteProvider.allCases.compactMap { provider -> (RouteProvider, Int)? in
            let total = days.reduce(0) { $0 + log.requests(to: provider, on: $1) }
            return total > 0 ? (provider, total) : nil
        }
        guard !used.isEmpty else { return [] }
        // The alerts delivered in those days, each once: by the providers of their schedules' routes.
        let since = calendar.instant(on: CivilDate(dayNumber: today.dayNumber - RequestCost.week + 1), hour: 0, minute: 0)
        let entries = (try? commute.alerts.ledger().entries) ?? []
        var delivered = Set<Occurrence>()
        for entry in entries where entry.outcome == .delivered && entry.action == nil && entry.at >= since && !entry.alert.isHeadsUp {
            if entry.alert.scheduleID != nil { delivered.insert(Occurrence(entry.alert, at: entry.occurrence)) }
        }
        let schedules = Dictionary(
            (((try? store.schedules().schedules) ?? []) + commute.calendars.departureSchedules()).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var providers: [RouteID: RouteProvider] = [:]
        for route in (try? store.routes().routes) ?? [] {
            guard case .provider(let custom) = route.kind else { continue }
            providers[route.id] = custom.provider
        }
        let month = CivilDate(year: today.year, month: today.month, day: 1)
        let nextMonth = CivilDate(year: today.month == 12 ? today.year + 1 : today.year, month: today.month % 12 + 1, day: 1)
        let daysInMonth = nextMonth.dayNumber - month.dayNumber
        let configuration = (try? store.configuration()) ?? .empty
        return used.map { provider, total in
            let alerts = delivered.count { occurrence in
                guard let id = occurrence.alert.scheduleID, let schedule = schedules[id] else { return false }
                return schedule.routeIDs.contains { providers[$0] == provider }
            }
            let thisMonth = (month.dayNumber...today.dayNumber).reduce(0) { $0 + log.requests(to: provider, on: CivilDate(dayNumber: $1).iso) }
            let pace = Double(total) / Double(max(counted.count, 1))
            let projected = thisMonth + Int((pace * Double(nextMonth.dayNumber - today.dayNumber - 1)).rounded())
            return RequestCost(
                provider: provider, requests: total, alerts: alerts, days: max(counted.count, 1), projected: projected,
                monthBudget: configuration.budget(for: provider) * daysInMonth)
        }
    }
}
