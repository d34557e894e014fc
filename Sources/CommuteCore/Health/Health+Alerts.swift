import Basics
import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

/// Why the alerts about to go out would be wrong: refreshes failing for `stale-after`, or an alert
/// in its lead window that would carry data older than that. `tick` tells the user once, through
/// the notifiers, and once more when it mends.
public struct HealthProblem: Sendable, Equatable {
    public typealias Kind = HealthIssue

    /// An alert in its lead window that would carry old data.
    public struct Affected: Sendable, Equatable {
        public var title: String
        public var firesAt: Date
        public var dataAsOf: Date
    }

    public var kind: Kind
    /// When it began: the first failed refresh, or when the oldest data was measured.
    public var since: Date
    /// What is wrong: `the feed has failed 14 times since 7:05 AM: the server answered HTTP 401`.
    public var what: String
    /// What mends it, when that is known: `set the access code with …`.
    public var fix: String?
    /// Soonest first.
    public var affected: [Affected]

    /// Health alerts (problems and their ends) that may go out in one local day: a refresh that
    /// fails and mends all day long does not make the phone buzz all day.
    public static let dailyCap = 4
}

extension Health {
    /// How old data may grow, and how long refreshes may fail, before the user is told:
    /// `config set stale-after` (0 turns health alerts off) and the lead window it looks in.
    public struct HealthPolicy: Sendable, Equatable {
        public var staleAfter: TimeInterval
        public var lead: TimeInterval
        /// Whether delay watches depend on refreshes (then a failing refresh matters with no
        /// alert planned).
        public var watching: Bool
        /// Whether custom routes are asked when their alerts need it: an alert on them only is
        /// not stale before its last ask is due (`AskPlan.finalLead`).
        public var plansRequests: Bool

        public init(_ configuration: Configuration) {
            plansRequests = configuration.planRequests != false
            staleAfter = TimeInterval((configuration.staleAfterMinutes ?? Configuration.defaultStaleAfterMinutes) * 60)
            lead = TimeInterval((configuration.leadMinutes ?? Configuration.defaultLeadMinutes) * 60)
            watching = !(configuration.watches ?? []).isEmpty
        }

        public var isOff: Bool { staleAfter <= 0 }
    }

    /// What `tick` did about the alerts' health.
    public struct HealthReport: Sendable, Equatable {
        /// The problem found now; nil when all is well.
        public var problem: HealthProblem?
        /// A health alert (a problem, or its end), and how each notifier took it.
        public var sent: [SentAlert] = []
        /// Why a health alert was held back this tick (quiet hours, the daily cap).
        public var heldBecause: HoldReason?
    }

    /// The problem that makes alerts wrong now, if any: refreshes (the feed's, or a provider's)
    /// failing for `staleAfter`, or else an alert firing within `lead` whose data is older than
    /// that. A problem already `open` lasts while its cause does — refreshes failing, or any alert
    /// still planned on data that old — never ending only because the alerts it touched have gone
    /// by. A plan and a log as `tick` reads them; nothing is written.
    public func healthProblem(
        plan: PendingBook, log: RefreshLog, policy: HealthPolicy, open: HealthRecord.OpenProblem? = nil,
        planned: (PendingBook.Entry) -> Bool = { _ in false }
    ) -> HealthProblem? {
        guard !policy.isOff else { return nil }
        let limit = now.addingTimeInterval(-policy.staleAfter)
        let lookback = ZonedCalendar(timeZone: timeZone, around: now, daysBefore: 1, daysAfter: 2)
        // Every alert still to come that would carry data older than the limit: the cause of a
        // data problem. Only those within the lead window raise one.
        let stale = plan.requests.filter { entry in
            guard entry.nextFire >= now.addingTimeInterval(-60), let dataAsOf = entry.dataAsOf, dataAsOf < limit else { return false }
            return !Alerts.isPaused(entry, at: entry.arrival ?? entry.nextFire, pauses: plan.pauses, calendar: lookback)
        }
        var titles: Set<String> = []
        let affected: [HealthProblem.Affected] = stale.compactMap { entry in
            guard entry.nextFire.timeIntervalSince(now) <= policy.lead, let dataAsOf = entry.dataAsOf else { return nil }
            // Its routes are asked shortly before it goes out: old data now is the plan, not a fault.
            if entry.nextFire.timeIntervalSince(now) > AskPlan.finalLead - 120, planned(entry) { return nil }
            let title = entry.title ?? "Alert \(entry.id)"
            // A heads-up and its leave alert are one alert to the user.
            guard titles.insert(title).inserted else { return nil }
            return HealthProblem.Affected(title: title, firesAt: entry.nextFire, dataAsOf: dataAsOf)
        }.sorted { $0.firesAt < $1.firesAt }

        // Failing refreshes matter when something depends on them.
        var failures: [(since: Date, what: String, fix: String?)] = []
        if !plan.requests.isEmpty || policy.watching {
            if log.failuresSinceSuccess > 0, let since = log.failingSince, since <= limit {
                let tries = log.failuresSinceSuccess == 1 ? "once" : "\(log.failuresSinceSuccess) times"
                failures.append((
                    since, "refresh has failed \(tries) since \(moment(since)): \(log.lastResult ?? "no reason recorded")", log.lastFix))
            }
            for provider in RouteProvider.allCases {
                guard let failure = log.failingProviders?[provider.rawValue], failure.since <= limit else { continue }
                // A refresh of custom routes alone fails with the provider's words: said once.
                if failures.contains(where: { $0.what.contains(failure.reason) }) { continue }
                failures.append((failure.since, "\(provider.displayName) has failed since \(moment(failure.since)): \(failure.reason)", nil))
            }
        }
        if let first = failures.min(by: { $0.since < $1.since }) {
            return HealthProblem(
                kind: .refresh, since: first.since, what: failures.map(\.what).joined(separator: "; "),
                fix: failures.compactMap(\.fix).first, affected: affected)
        }
        // An open data problem covers the alerts to come while their data is still that old (a
        // refresh problem ends when refresh works; old data after it is a problem of its own).
        let cause = open?.kind == .data ? stale.compactMap(\.dataAsOf).min() : affected.map(\.dataAsOf).min()
        guard let oldest = cause else { return nil }
        var what = "the travel times are \(TimeFormatting.age(now.timeIntervalSince(oldest))) old (measured \(moment(oldest)))"
        let fix: String
        if let attempt = log.lastAttemptAt, attempt > limit {
            what += "; refresh runs, but its source has nothing newer"
            fix = "`traveltimes status` shows the source and each route's age; a provider's budget may be spent"
        } else {
            what += log.lastAttemptAt.map { "; refresh has not run since \(moment($0))" } ?? "; refresh has never run"
            fix = "run refresh every few minutes: `traveltimes install systemd` (or `install cron`)"
        }
        return HealthProblem(kind: .data, since: oldest, what: what, fix: fix, affected: affected)
    }

    /// Tells the user, once, when the alerts have a health problem — and once when it mends. The
    /// health alert goes to every notifier through the gateway: quiet hours hold it (it goes out
    /// when they end, if the problem lasts), as does the daily cap of `HealthProblem.dailyCap`; a
    /// problem that mends before it could be told is not told, nor its end. Every decision is a
    /// ledger line. A minute with nothing new reads the refresh log and the health record, and
    /// takes no lock.
    func tickHealth(
        plan: PendingBook, policy: HealthPolicy, notifiers: [Notifier], quietHours: QuietHours?, sender: some AlertSender
    ) throws -> HealthReport {
        let log = (try? store.refreshLog()) ?? .empty
        let open = try store.health().problem
        // Whether an alert rests only on routes the request plan asks: read only when an alert's
        // data is old (the common minute reads nothing for it).
        var known: (routes: [RouteID: Route], schedules: [UUID: Schedule])?
        func planned(_ entry: PendingBook.Entry) -> Bool {
            guard policy.plansRequests else { return false }
            let (routes, schedules) = known ?? (
                (try? store.routes().byID) ?? [:],
                Dictionary(((try? store.schedules().schedules) ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
            known = (routes, schedules)
            guard let schedule = schedules[entry.scheduleID], !schedule.routeIDs.isEmpty else { return false }
            // A provider failing, or a route without its live time, is not on the plan's track.
            return schedule.routeIDs.allSatisfy { id in
                guard let route = routes[id], let provider = route.provider, provider.predictsTraffic || provider.isTransit, route.hasLiveTime,
                    log.failingProviders?[provider.rawValue] == nil, route.custom?.liveProblem == nil
                else { return false }
                return true
            }
        }
        var report = HealthReport(problem: healthProblem(plan: plan, log: log, policy: policy, open: open, planned: planned))
        let inQuietHours = quietHours?.contains(calendar.local(now).time) ?? false
        switch (report.problem, open) {
        case (nil, nil): return report
        case (.some, .some(let open)) where open.alertedAt != nil: return report
        case (.some, .some(let open)) where inQuietHours && open.heldBecause?.isQuietHours == true: return report
        case (nil, .some(let open)) where open.alertedAt != nil && inQuietHours: return report
        default: break
        }
        let deliveries: [Delivery] = try store.updateHealthAndLedger(keepingSince: ledgerHorizon) { record, ledger in
            if let problem = report.problem {
                var open = record.problem ?? HealthRecord.OpenProblem(kind: problem.kind, since: problem.since, foundAt: now)
                guard open.alertedAt == nil else { return [] }
                let occurrence = Occurrence(open.alert, at: open.foundAt)
                if let reason = healthGate(quietHours: quietHours, ledger: ledger) {
                    report.heldBecause = reason
                    if open.heldBecause != reason {
                        ledger.decide(occurrence, .suppressed, reason: "\(reason); sent \(reason.until), if the problem lasts", at: now)
                        open.heldBecause = reason
                    }
                    record.problem = open
                    return []
                }
                open.alertedAt = now
                record.problem = open
                return claims(healthMessage(problem, id: open.alert, lead: policy.lead), occurrence, notifiers: notifiers, ledger: &ledger)
            }
            guard let open = record.problem else { return [] }
            guard open.alertedAt != nil else {
                // Never told: its end is no news either.
                ledger.decide(
                    Occurrence(open.alert, at: open.foundAt), .suppressed, reason: "mended before it could be sent", at: now)
                record.problem = nil
                return []
            }
            if let reason = healthGate(quietHours: quietHours, ledger: ledger) {
                report.heldBecause = reason
                return []
            }
            record.problem = nil
            // Mended because fresh data came, or because no alert is planned on any data now.
            let limit = now.addingTimeInterval(-policy.staleAfter)
            let message = mendedMessage(open, fresh: open.kind == .refresh || plan.requests.contains { ($0.dataAsOf ?? .distantPast) >= limit })
            return claims(message, Occurrence(open.mendedAlert, at: open.foundAt), notifiers: notifiers, ledger: &ledger)
        }
        report.sent = try commute.alerts.deliver(deliveries, sender: sender)
        return report
    }

    /// Why a health alert may not go out now, or nil: quiet hours, or the day's health alerts.
    private func healthGate(quietHours: QuietHours?, ledger: DeliveryLedger) -> HoldReason? {
        Gateway(quietHours: quietHours, calendar: calendar, now: now).hold(.health, cap: HealthProblem.dailyCap, ledger: ledger)
    }

    private func claims(_ message: AlertMessage, _ occurrence: Occurrence, notifiers: [Notifier], ledger: inout DeliveryLedger) -> [Delivery] {
        notifiers.map { notifier in
            let claim = Claim(occurrence: occurrence, notifier: notifier, attempt: 1, isResend: false)
            ledger.claim(claim, at: now)
            return Delivery(claim: claim, message: message, note: nil)
        }
    }

    /// `Alerts may be wrong: refresh has failed for 2 h`, with why, the fix, and the alerts it
    /// touches.
    func healthMessage(_ problem: HealthProblem, id: AlertID, lead: TimeInterval) -> AlertMessage {
        let title = switch problem.kind {
        case .refresh: "Alerts may be wrong: refresh has failed for \(TimeFormatting.age(now.timeIntervalSince(problem.since)))"
        case .data: "Alerts may be wrong: travel times are \(TimeFormatting.age(now.timeIntervalSince(problem.since))) old"
        }
        let what = DisplayText.line(problem.what)
        var lines = [what.prefix(1).uppercased() + what.dropFirst() + "."]
        if let fix = problem.fix { lines.append("Fix: \(fix).") }
        let shown = problem.affected.prefix(3).map { "\($0.title), due \(moment($0.firesAt))" }
        if shown.isEmpty {
            lines.append("No alert in the next \(TimeFormatting.age(lead)) carries old data yet.")
        } else {
            let more = problem.affected.count > shown.count ? ", and \(problem.affected.count - shown.count) more" : ""
            lines.append("Affected: " + shown.joined(separator: "; ") + more + ".")
        }
        return AlertMessage(id: id, title: title, body: lines.joined(separator: "\n"))
    }

    /// `Alerts are current again`, naming the problem that ended; when old data ended only
    /// because no alert is planned any more (`fresh` false), it says that instead.
    func mendedMessage(_ open: HealthRecord.OpenProblem, fresh: Bool = true) -> AlertMessage {
        let what = switch open.kind {
        case .refresh: "refresh works again"
        case .data: fresh ? "the travel times are current again" : "no alert is planned on the old travel times any more"
        }
        return AlertMessage(
            id: open.mendedAlert, title: fresh ? "Alerts are current again" : "No alert carries old data now",
            body: "The problem that began \(moment(open.since)) is over: \(what).")
    }

    private func moment(_ date: Date) -> String { TimeFormatting.moment(date, relativeTo: now, calendar: calendar) }
}

extension Health {
    /// What would mend a failed feed refresh, as an instruction; nil when nothing specific is known
    /// (the failure itself says it).
    static func fix(forRefreshFailure error: any Error) -> String? {
        switch error {
        case let error as FetchError:
            switch error {
            case .http(let status) where status == 401 || status == 403:
                "set the access code with `traveltimes config set access-code -`"
            case .html: "check the access code: `traveltimes config set access-code -`"
            case .http(let status) where status == 404 || status == 410: "check the source: `traveltimes config set source URL`"
            case .http, .notJSON, .tooLarge, .refused: "check the source with `traveltimes config show`; `traveltimes refresh` shows the whole answer"
            case .timedOut, .gaveUp, .unreachable: "the source does not answer: check the network; alerts carry the last data until it does"
            case .helperMissing: "unset TRAVELTIMES_FETCH_HELPER, or point it at traveltimes"
            }
        case is FeedError: "the source sent something that is not the feed: check it with `traveltimes config show`"
        case is StoreError: "a store file cannot be read: `traveltimes doctor` names it"
        default: nil
        }
    }
}
