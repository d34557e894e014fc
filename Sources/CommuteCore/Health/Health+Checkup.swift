import Basics
import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

extension Health {
    /// One thing `doctor` finds in the store: the source, the zone, the schedules and their plan,
    /// the refreshes, the data's age, the providers and the notifiers' last deliveries. Typed, so
    /// that the CLI words each and says how to fix it; `severity` says how much it matters.
    public enum Finding: Sendable, Equatable {
        public enum Severity: String, Sendable { case ok, warning, problem }

        // The source
        /// No feed source: custom routes, transit feeds or both are what is refreshed.
        case customRoutesOnly(count: Int, transitFeeds: Int)
        /// None saved; `onlyInShell` when `TRAVELTIMES_SOURCE` is set here but not for timers.
        case noSource(onlyInShell: Bool)
        case sourceNotUsable(shown: String)
        case sourceIsRelativePath(shown: String)
        case sourceFileUnreadable(shown: String)
        case sourceFile(shown: String)
        /// WSDOT's URL without a code; `onlyInShell` when `WSDOT_ACCESS_CODE` is set here only.
        case sourceNeedsAccessCode(shown: String, onlyInShell: Bool)
        case sourceURL(shown: String)

        // The zone
        case zoneSaved(String)
        /// The saved zone keeps other clocks than a source's (a UTC host saved UTC while the
        /// WSDOT feed or a transit agency is in Seattle).
        case zoneDiffers(saved: String, source: String, zone: String)
        /// `TRAVELTIMES_TZ` in this shell differs from the saved zone the timers use.
        case zoneOverridden(saved: String, override: String)
        case zoneNotSaved

        // The schedules and their plan
        case schedulesUnreadable(reason: String)
        case noSchedules
        case allSchedulesDisabled(count: Int)
        case planUnreadable
        case planned(enabled: Int, watches: Int, pending: Int, next: Date)
        case onlyWatches(watches: Int)
        case nothingPlanned(enabled: Int, watches: Int)
        case duplicateSchedule(Schedule, copy: Schedule)
        case scheduleInsideQuietHours(Schedule, QuietHours)

        // Refreshes and data
        /// `lastFailure`: why the last try failed, when refreshes are failing.
        case neverRefreshed(lastFailure: String?, hasSource: Bool)
        case refreshed(lastSuccess: Date, age: TimeInterval, lastFailure: String?)
        /// How old the travel times the alerts would carry are: the oldest any planned alert shows
        /// (`alert` names it), each alert judged by its own data.
        case dataAge(oldest: Date, age: TimeInterval, alert: String?)

        // Providers
        case providerWithoutKey(RouteProvider, usage: ProviderUsage, keyOnlyInShell: Bool)
        case providerBudgetSpent(RouteProvider, usage: ProviderUsage)
        case providerReady(RouteProvider, usage: ProviderUsage)
        /// Every request of the latest refresh that asked it failed: its routes keep their last times.
        case providerFailing(RouteProvider, usage: ProviderUsage, failure: RefreshLog.ProviderFailure)
        /// A variable set in this shell that changes what the unattended runs do, which timers and
        /// cron do not see: `setting` saves it (nil when it has no saved form).
        case onlyInShell(EnvironmentVariable, setting: String?)

        // Transit feeds
        /// A feed, its routes, when its timetable was last checked (nil: never) and its problems
        /// at the last refresh.
        case transitFeed(name: String, routes: Int, checkedAt: Date?, problems: [String])
        /// A feed file named by a relative path, which timers and cron, running elsewhere, miss.
        case transitRelativePath(name: String, kind: String, path: String)
        /// A transit route with no departure in the next day and a half, and why (its
        /// timetable's dates, or none that runs).
        case transitNoDeparture(route: RouteID, why: String)

        // Calendars
        /// A calendar, what it plans, when it was last read, and why its last reading failed.
        case calendar(name: String, planned: String, checkedAt: Date?, problem: String?)
        /// `calendars.json` cannot be read: no calendar's departures or days off are planned.
        case calendarsUnreadable(reason: String)

        // Exports
        /// An export, where it goes, when it last sent or wrote a change, and why its last
        /// attempt failed.
        case export(id: String, kind: String, location: String, lastSuccessAt: Date?, problem: String?)
        /// `exports.json` cannot be read: every export sends everything again at the next run.
        case exportsUnreadable(reason: String)

        // Deliveries
        case lastDeliveryFailed(Notifier, reason: String)
        /// Transit trips followed after their leave alerts, and what they cost.
        case following(Alerts.Following)
        /// What each provider's requests cost per delivered alert this week, and the month's pace.
        case requests([RequestCost])
        /// The incident feed (the Autobahn API) for the car routes with a line.
        case incidents(Incidents.IncidentSummary)

        /// Older than this, the alerts' times are a warning; older than a day, a problem.
        public static let staleAfter: TimeInterval = 2 * 3_600

        /// Whether it stops alerts from going out at all, rather than make them carry old times:
        /// refreshes failing, or old data, leave `tick` sending what it has.
        public var stopsAlerts: Bool {
            switch self {
            case .refreshed, .dataAge, .neverRefreshed, .transitFeed, .transitNoDeparture, .calendar, .export, .exportsUnreadable: false
            default: severity == .problem
            }
        }

        public var severity: Severity {
            switch self {
            case .customRoutesOnly, .sourceFile, .sourceURL, .zoneSaved, .planned, .onlyWatches, .providerReady: .ok
            case .following(let following): following.stopped.isEmpty ? .ok : .warning
            case .requests(let costs): costs.contains { $0.projected > $0.monthBudget } ? .warning : .ok
            case .incidents(let summary): summary.problems.isEmpty && (summary.roads.isEmpty || summary.checkedAt != nil) ? .ok : .warning
            case .noSource, .sourceNotUsable, .sourceIsRelativePath, .sourceFileUnreadable, .sourceNeedsAccessCode, .zoneNotSaved,
                .schedulesUnreadable, .noSchedules, .allSchedulesDisabled, .planUnreadable, .nothingPlanned, .neverRefreshed,
                .providerWithoutKey, .lastDeliveryFailed, .transitRelativePath, .calendarsUnreadable:
                .problem
            case .zoneOverridden, .zoneDiffers, .duplicateSchedule, .scheduleInsideQuietHours, .providerBudgetSpent, .transitNoDeparture,
                .providerFailing:
                .warning
            case .onlyInShell: .problem
            case .refreshed(_, let age, let lastFailure): age > 86_400 ? .problem : age > Self.staleAfter || lastFailure != nil ? .warning : .ok
            case .dataAge(_, let age, _): age > 86_400 ? .problem : age > Self.staleAfter ? .warning : .ok
            case .transitFeed(_, _, let checkedAt, let problems): checkedAt == nil || !problems.isEmpty ? .warning : .ok
            case .calendar(_, _, _, let problem): problem == nil ? .ok : .warning
            case .export(_, _, _, _, let problem): problem == nil ? .ok : .warning
            case .exportsUnreadable: .warning
            }
        }
    }

    /// A provider's custom routes and its requests today against its budget.
    public struct ProviderUsage: Sendable, Equatable {
        public var routes: Int
        public var used: Int
        public var budget: Int
    }

    /// What `doctor` finds in the store, in the order a new user takes the steps: a source, then
    /// schedules, then refreshes. `environment` is this shell's: a setting only there is one the
    /// timers do not see. Reads only.
    public func checkup(environment: [String: String]) -> [Finding] {
        let configuration = configurationError == nil ? self.configuration : nil
        let cache = try? store.routes()
        let custom = (cache?.routes ?? []).filter(\.isProviderRoute)
        let transit = (try? commute.transit.transitFeeds()) ?? []
        var findings: [Finding] = []
        if let configuration {
            findings += checkSource(configuration, customRoutes: custom.count, transitFeeds: transit.count, environment: environment)
            findings += Self.shellOnlySettings(environment, configuration: configuration, routes: cache?.routes ?? [])
                .map { Finding.onlyInShell($0.0, setting: $0.setting) }
            findings += checkPlans(configuration, environment: environment)
        }
        findings += checkRefresh(cache, transit: transit.map(\.state))
        findings += checkDataAge(cache?.routes ?? [])
        if let configuration { findings += checkProviders(configuration, custom, environment: environment) }
        if let following = commute.alerts.following() { findings.append(.following(following)) }
        let costs = requestCosts()
        if !costs.isEmpty { findings.append(.requests(costs)) }
        if let incidents = commute.incidents.summary() { findings.append(.incidents(incidents)) }
        let transitRoutes = Dictionary(((try? store.transitRoutes()) ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (feed, state, routes) in transit {
            findings.append(.transitFeed(
                name: feed.name, routes: routes.count, checkedAt: state?.checkedAt,
                problems: state?.problemList ?? []))
            for id in routes {
                guard let route = transitRoutes[id].map(current), let trip = route.departures, trip.next(at: now) == nil else { continue }
                findings.append(.transitNoDeparture(route: id, why: TransitText.departures(of: trip, at: now, calendar: calendar)))
            }
            for (kind, text) in feed.locations {
                if case .file(let path) = TransitLocation(text), !path.hasPrefix("/") {
                    findings.append(.transitRelativePath(name: feed.name, kind: kind, path: path))
                }
            }
        }
        var calendars: [(source: CalendarSource, reading: CalendarState.Reading?, departures: Int, skippedDays: Int)] = []
        if configuration?.calendars?.isEmpty == false {
            do {
                calendars = try commute.calendars.list()
            } catch {
                findings.append(.calendarsUnreadable(reason: String(describing: error)))
            }
        }
        for item in calendars {
            let planned = item.source.purpose == .skip
                ? "rests every schedule on \(item.skippedDays) day\(item.skippedDays == 1 ? "" : "s")"
                : "\(item.departures) departure\(item.departures == 1 ? "" : "s") "
                    + (item.source.routeID.map { "by route \($0)" } ?? "from \(item.source.from ?? "?") (\(item.source.provider?.displayName ?? "?"))")
            findings.append(.calendar(name: item.source.name, planned: planned, checkedAt: item.reading?.checkedAt, problem: item.reading?.problem))
        }
        if configuration?.exports?.isEmpty == false {
            do {
                for item in try commute.exports.list() {
                    findings.append(.export(
                        id: item.target.id, kind: item.target.kind.rawValue, location: item.target.shownLocation, lastSuccessAt: item.record?.lastSuccessAt,
                        problem: item.record?.problem))
                }
            } catch {
                findings.append(.exportsUnreadable(reason: String(describing: error)))
            }
        }
        return findings
    }

    /// The zones the sources keep their clocks in: WSDOT's feed (Washington State), each transit
    /// agency's (its agency.txt). Custom routes have none of their own.
    public func sourceZones() -> [(source: String, zone: String)] {
        var zones: [(source: String, zone: String)] = []
        if let cache = try? store.routes(), cache.routes.contains(where: { $0.kind == .feed }) {
            zones.append(("WSDOT's feed", WSDOTFeed.timeZone))
        }
        for (feed, state, _) in (try? commute.transit.transitFeeds()) ?? [] {
            if let zone = state?.timeZone { zones.append(("transit feed \(feed.name)", zone)) }
        }
        return zones
    }

    /// The first source whose clocks are not `zone`'s, if any.
    public func source(keepingOtherClocksThan zone: String) -> (source: String, zone: String)? {
        sourceZones().first { !Self.sameClocks(zone, $0.zone, around: now) }
    }

    /// Whether two zones keep the same clocks now and half a year on (America/Vancouver and
    /// America/Los_Angeles do; UTC and Seattle do not).
    static func sameClocks(_ first: String, _ second: String, around moment: Date) -> Bool {
        guard first != second else { return true }
        guard let one = IANAZone(identifier: first), let other = IANAZone(identifier: second) else { return false }
        return [moment, moment.addingTimeInterval(182 * 86_400)].allSatisfy { one.secondsFromGMT(for: $0) == other.secondsFromGMT(for: $0) }
    }

    /// A notifier whose last delivery failed will fail the next alert too, most likely.
    public static func lastDeliveryFailure(of notifier: Notifier, in ledger: DeliveryLedger) -> Finding? {
        guard let last = ledger.entries.last(where: { $0.notifier == notifier.id && ($0.outcome == .delivered || $0.outcome == .failed) }),
            last.outcome == .failed
        else { return nil }
        return .lastDeliveryFailed(notifier, reason: last.reason ?? "no reason given")
    }

    private func checkSource(_ configuration: Configuration, customRoutes: Int, transitFeeds: Int, environment: [String: String]) -> [Finding] {
        guard let text = configuration.source else {
            if customRoutes > 0 || transitFeeds > 0 { return [.customRoutesOnly(count: customRoutes, transitFeeds: transitFeeds)] }
            return [.noSource(onlyInShell: !(environment[.source] ?? "").isEmpty)]
        }
        let shown = FeedSource.redact(FeedSource.display(text), secrets: configuration.accessCode.map { [$0] } ?? [])
        switch FeedSource(text) {
        case nil:
            return [.sourceNotUsable(shown: shown)]
        case .file(let path):
            if !path.hasPrefix("/") { return [.sourceIsRelativePath(shown: shown)] }
            return [access(path, R_OK) != 0 ? .sourceFileUnreadable(shown: shown) : .sourceFile(shown: shown)]
        case .url(let url):
            let needsCode = url.host?.lowercased().hasSuffix("wsdot.wa.gov") == true
                && !(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).contains { $0.name.lowercased() == "accesscode" }
            guard needsCode, configuration.accessCode == nil else { return [.sourceURL(shown: shown)] }
            return [.sourceNeedsAccessCode(shown: shown, onlyInShell: Credentials(environment: environment, configuration: configuration).isInEnvironment(.accessCode))]
        }
    }

    private func checkPlans(_ configuration: Configuration, environment: [String: String]) -> [Finding] {
        var findings: [Finding] = []
        if let saved = configuration.timeZone {
            let override = environment[.timeZone].flatMap { $0.isEmpty ? nil : $0 }
            if let override, override != saved {
                findings.append(.zoneOverridden(saved: saved, override: override))
            } else if let other = source(keepingOtherClocksThan: saved) {
                findings.append(.zoneDiffers(saved: saved, source: other.source, zone: other.zone))
            } else {
                findings.append(.zoneSaved(saved))
            }
        } else {
            findings.append(.zoneNotSaved)
        }
        let schedules: [Schedule]
        do {
            schedules = try store.schedules().schedules
        } catch {
            return findings + [.schedulesUnreadable(reason: String(describing: error))]
        }
        let enabled = schedules.count(where: \.isEnabled)
        let watches = configuration.watches?.count ?? 0
        // A calendar's departures are alerts too: with them, no schedule is no problem.
        let departures = commute.calendars.departureSchedules().count
        guard enabled > 0 || watches > 0 || departures > 0 else {
            return findings + [schedules.isEmpty ? .noSchedules : .allSchedulesDisabled(count: schedules.count)]
        }
        guard let report = try? commute.schedules.pendingReport(deferred: .soonest(0)) else { return findings + [.planUnreadable] }
        if let next = report.requests.map(\.request.nextFire).min() {
            findings.append(.planned(enabled: enabled, watches: watches, pending: report.requests.count, next: next))
        } else if enabled == 0 {
            findings.append(.onlyWatches(watches: watches))
        } else {
            findings.append(.nothingPlanned(enabled: enabled, watches: watches))
        }
        for (schedule, warnings) in Schedules.warnings(for: schedules, quietHours: configuration.quietHours) {
            for warning in warnings {
                switch warning {
                case .duplicate(let copy): findings.append(.duplicateSchedule(schedule, copy: copy))
                case .insideQuietHours(let window): findings.append(.scheduleInsideQuietHours(schedule, window))
                }
            }
        }
        return findings
    }

    /// The last successful refresh: the feed's or the custom routes' (the refresh log), or a
    /// transit feed's (its timetable checked, or its realtime feed read), whichever is newer.
    private func checkRefresh(_ cache: RouteCache?, transit: [TransitState.FeedState?]) -> [Finding] {
        let log = (try? store.refreshLog()) ?? .empty
        let failing = log.failuresSinceSuccess > 0 ? log.lastResult : nil
        let transitSuccess = transit.compactMap { $0 }.flatMap { [$0.checkedAt, $0.realtimeFetchedAt].compactMap { $0 } }.max()
        // A custom route answered is a refresh that worked, whatever else the store has.
        let customSuccess = (cache?.routes ?? []).compactMap(\.custom?.fetchedAt).max()
        guard let success = [log.lastSuccessAt ?? cache?.fetchedAt, transitSuccess, customSuccess].compactMap({ $0 }).max() else {
            // With no source, a refresh has nothing to read: the first missing step comes first.
            let hasSource = configuration.source != nil || (cache?.routes ?? []).contains(where: \.isProviderRoute) || !transit.isEmpty
            return [.neverRefreshed(lastFailure: failing, hasSource: hasSource)]
        }
        return [.refreshed(lastSuccess: success, age: max(0, now.timeIntervalSince(success)), lastFailure: failing)]
    }

    /// How old the travel times the alerts would carry are: a refresh can succeed every 15
    /// minutes and still save a feed that stopped updating a year ago, and a fresh transit route
    /// beside it does not make a road alert's data current. Each planned alert is judged by the
    /// data it shows (as `tick`'s health check judges it); the oldest is what is said.
    private func checkDataAge(_ routes: [Route]) -> [Finding] {
        if let plan = try? store.pending(deferred: .none), !plan.requests.isEmpty {
            let lookback = ZonedCalendar(timeZone: timeZone, around: now, daysBefore: 1, daysAfter: 8)
            let aged = plan.requests.filter { entry in
                !Alerts.isPaused(entry, at: entry.arrival ?? entry.nextFire, pauses: plan.pauses, calendar: lookback)
            }.compactMap { entry in entry.dataAsOf.map { (entry, $0) } }
            guard let (entry, oldest) = aged.min(by: { $0.1 < $1.1 }) else { return [] }
            return [.dataAge(oldest: oldest, age: max(0, now.timeIntervalSince(oldest)), alert: entry.title)]
        }
        let used = Set(((try? store.schedules().schedules) ?? []).filter(\.isEnabled).flatMap(\.routeIDs))
        let relevant = used.isEmpty ? routes : routes.filter { used.contains($0.id) }
        guard let newest = relevant.filter({ $0.currentMinutes != nil }).map(\.updatedAt).max() else { return [] }
        return [.dataAge(oldest: newest, age: max(0, now.timeIntervalSince(newest)), alert: nil)]
    }

    /// The variables set in `environment` that change what `refresh` and `tick` do with this store,
    /// which the timers and cron will not have, each with the setting that saves it (nil when it
    /// has none): a service's address counts when a route, calendar or notifier uses the service.
    /// The source, the access code and the providers' keys are said where they are checked.
    public static func shellOnlySettings(_ environment: [String: String], configuration: Configuration, routes: [Route]) -> [(EnvironmentVariable, setting: String?)] {
        var providers = Set(routes.compactMap(\.custom).flatMap { [$0.provider] + ($0.fallback.map { [$0] } ?? []) })
        providers.formUnion((configuration.calendars ?? []).compactMap(\.provider))
        let searchesPlaces = (configuration.calendars ?? []).contains { $0.from != nil }
        let channels = (configuration.notifiers ?? []).compactMap { notifier -> String? in
            if case .channel(let url) = notifier.kind { return url.lowercased() }
            return nil
        }
        let saved: [(EnvironmentVariable, String?, String, Bool)] = [
            (Geocoder.nominatim.baseURLVariable, configuration.geocoderURL, Setting.geocoderURL.name, searchesPlaces)
        ]
        let keyed = RouteProvider.allCases.map { ($0.baseURLVariable, configuration.baseURL(for: $0), Setting.providerURL($0).name, providers.contains($0)) }
        var found: [(EnvironmentVariable, setting: String?)] = (saved + keyed).compactMap { variable, value, setting, used in
            used && environment.nonEmpty(variable) != nil && value == nil ? (variable, setting) : nil
        }
        let hosts = Set(channels.compactMap(Channel.hostVariable(of:)))
        let unsaved: [(EnvironmentVariable, Bool)] = Channel.hostVariables.map { ($0, hosts.contains($0)) }
            + [(.cap, true), (.lockTimeout, true), (.tickDeadline, true)]
        for (variable, used) in unsaved where used && environment.nonEmpty(variable) != nil {
            found.append((variable, nil))
        }
        return found
    }

    /// Each provider that serves a custom route: a key the timers will see, and its budget today.
    private func checkProviders(_ configuration: Configuration, _ custom: [Route], environment: [String: String]) -> [Finding] {
        let log = (try? store.refreshLog()) ?? .empty
        return RouteProvider.allCases.compactMap { provider in
            let routes = custom.count { $0.provider == provider }
            guard routes > 0 else { return nil }
            let usage = ProviderUsage(routes: routes, used: log.requests(to: provider, on: commute.customRoutes.budgetDay), budget: configuration.budget(for: provider))
            let credentials = Credentials(environment: environment, configuration: configuration)
            if let variable = provider.keyVariable, configuration.key(for: provider) == nil {
                return .providerWithoutKey(provider, usage: usage, keyOnlyInShell: credentials.isInEnvironment(variable))
            }
            if usage.used >= usage.budget { return .providerBudgetSpent(provider, usage: usage) }
            if let failure = log.failingProviders?[provider.rawValue] { return .providerFailing(provider, usage: usage, failure: failure) }
            return .providerReady(provider, usage: usage)
        }
    }
}
