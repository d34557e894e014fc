import CommuteCore
import FoundationEssentials

extension Commands {
    static let status = Command(
        name: "status",
        summary: "Show the store, the zone, the data's age, counts, and what runs refresh and tick",
        options: [Options.json, Options.now],
        discussion: """
            Each part is read on its own: an unreadable file is named (and the exit status is its
            error's) while the rest is still shown. --json gives the same as one object, with the
            unreadable files under "errors". `traveltimes doctor` checks whether alerts will go out.
            """
    ) { invocation in
        let commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
        let status = commute.health.storeStatus()
        let configuration = commute.configurationError == nil ? commute.configuration : nil
        let report = try StatusJSON(status, configuration: configuration, commute, invocation)
        let pauseLines = status.schedules.map { book in (status.pauses ?? []).map { describe($0, book.schedules, commute) } } ?? []
        // A transit feed's URLs are shown without their keys; its secrets are held back all the same.
        let io = invocation.io.redacting((status.transit ?? []).flatMap(\.feed.secrets))
        if invocation.wantsJSON {
            try invocation.printJSON(report, through: io)
        } else {
            printStatus(
                report, pauseLines: pauseLines, transitFeeds: status.transit ?? [], configurationRead: configuration != nil, commute: commute,
                io: io)
        }
        if let first = status.errors.first {
            for error in status.errors.dropFirst() { _ = CLI.fail(error, io: invocation.io) }
            throw first
        }
    }

    /// `status` as text, one line a part.
    private static func printStatus(
        _ report: StatusJSON, pauseLines: [String], transitFeeds: [(feed: TransitFeed, state: TransitState.FeedState?, routes: [String])],
        configurationRead: Bool, commute: Commute, io: TerminalIO
    ) {
        let calendar = commute.calendar
        func moment(_ moment: StatusJSON.Moment) -> String {
            TimeFormatting.moment(moment.date, relativeTo: commute.now, calendar: calendar)
        }
        io.out("Store:      \(report.store)")
        if let zone = report.timeZone, let timeZone = IANAZone(identifier: zone.name) {
            io.out("Time zone:  \(describe(timeZone, zone.from, saved: zone.saved))")
        } else if !configurationRead {
            io.out("Time zone:  unknown: config.json cannot be read (times below are in \(commute.timeZone.identifier))")
        }
        if let routes = report.routes {
            // Each source's age on its own: a fresh transit feed never hides an old road feed.
            let ages = routes.sources.map { source in
                let age = source.updatedAt.map { "\(moment($0)) (\(TimeFormatting.age(commute.now.timeIntervalSince($0.date))) ago\(source.stale ? ", stale" : ""))" }
                return (routes.sources.count > 1 ? "\(source.source) " : "") + (age ?? (source.source.hasPrefix("transit ") ? "timetable only" : "not fetched yet"))
            }
            if routes.updatedAt != nil, !ages.isEmpty {
                io.out("Routes:     \(routes.count) (\(routes.withoutData) without data)\(ages.count > 1 ? "; " : ", ")updated \(ages.joined(separator: "; "))")
            } else if let updated = routes.updatedAt {
                io.out(
                    "Routes:     \(routes.count) (\(routes.withoutData) without data), updated \(moment(updated)) "
                        + "(\(TimeFormatting.age(commute.now.timeIntervalSince(updated.date))) ago)")
            } else {
                io.out("Routes:     none yet — run `traveltimes refresh --source FILE`")
            }
            if let fetched = routes.fetchedAt { io.out("Refreshed:  \(moment(fetched)) from \(routes.from ?? "?")") }
        }
        if let last = report.lastRefresh {
            var line = "Last try:   \(moment(last.at)): \(last.result)"
            if last.failuresInARow > 1 { line += " (\(last.failuresInARow) failures in a row)" }
            io.out(line)
        }
        if configurationRead {
            let others = [report.customRoutes ?? 0 > 0 ? "custom routes" : nil, report.transit?.isEmpty == false ? "transit feeds" : nil].compactMap { $0 }
            let none = others.isEmpty ? "not set — `traveltimes config set source URL`" : "not set (\(others.joined(separator: " and ")) only)"
            io.out("Source:     \(report.source ?? none)")
        }
        for (feed, state, routes) in transitFeeds {
            let checked = state?.checkedAt.map { "timetable checked \(TimeFormatting.moment($0, relativeTo: commute.now, calendar: calendar))" }
                ?? "timetable never checked"
            var line = "Transit:    \(feed.name), \(routes.count) route\(routes.count == 1 ? "" : "s"); \(checked)"
            if let read = state?.realtimeFetchedAt { line += "; realtime read \(TimeFormatting.moment(read, relativeTo: commute.now, calendar: calendar))" }
            let problems = state?.problems?.count ?? 0
            if problems > 0 { line += "; \(problems) problem\(problems == 1 ? "" : "s") (`traveltimes transit list`)" }
            io.out(line)
        }
        if let providers = report.providers {
            let used = providers.filter { $0.routes > 0 || $0.requestsToday > 0 }
            let text = used.map { "\($0.provider) \($0.requestsToday) of \($0.budget) requests today (\($0.routes) route\($0.routes == 1 ? "" : "s"))" }
            io.out("Providers:  \(text.isEmpty ? "no custom routes" : text.joined(separator: "; "))")
        }
        if let favorites = report.favorites { io.out("Favorites:  \(favorites)") }
        if let schedules = report.schedules { io.out("Schedules:  \(schedules.count) (\(schedules.enabled) enabled)") }
        for text in pauseLines { io.out("Paused:     \(text)") }
        if let pending = report.pending {
            var line = "Pending:    \(pending.scheduled) scheduled (cap \(pending.cap)), \(pending.deferred) deferred"
            if let planned = pending.plannedAt { line += "; planned \(moment(planned))" }
            io.out(line)
        }
        if let last = report.lastAlert {
            let counts = last.lastDay.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            io.out("Last alert: \(moment(last.at)) \(last.outcome); last 24 h: \(counts.isEmpty ? "none" : counts)")
        }
        io.out("Installed:  \(report.installed.summary)")
    }

    /// This program's absolute path, for the crontab lines.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "traveltimes"
    }
}

/// `status --json`: a public contract. A part whose file cannot be read is null, and the reason is
/// in `errors`.
struct StatusJSON: EveryKeyEncodable {
    /// A moment, written as ISO 8601 in the schedules' zone.
    struct Moment: Encodable {
        var date: Date
        var text: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    struct Zone: EveryKeyEncodable {
        var name: String
        /// `saved`, `TRAVELTIMES_TZ` (for this command) or `host` (none saved yet).
        var from: Invocation.ZoneSource
        var saved: String?
    }

    struct Routes: EveryKeyEncodable {
        var count: Int
        var withoutData: Int
        var updatedAt: Moment?
        var fetchedAt: Moment?
        var from: String?
        /// Each source's newest reading: the feed, each provider, each transit feed.
        var sources: [Source]
    }

    struct Source: EveryKeyEncodable {
        /// `wsdot`, `here`, `transit metro`.
        var source: String
        /// Null when it has none (a transit feed's timetable alone, a route never fetched).
        var updatedAt: Moment?
        var stale: Bool
    }

    struct LastRefresh: EveryKeyEncodable {
        var at: Moment
        var result: String
        var lastSuccessAt: Moment?
        var failuresInARow: Int
    }

    struct Schedules: EveryKeyEncodable {
        var count: Int
        var enabled: Int
    }

    struct Pending: EveryKeyEncodable {
        var scheduled: Int
        var deferred: Int
        var cap: Int
        var plannedAt: Moment?
    }

    struct LastAlert: EveryKeyEncodable {
        var at: Moment
        var outcome: String
        /// Outcomes in the last 24 hours, counted.
        var lastDay: [String: Int]
    }

    struct InstalledJSON: EveryKeyEncodable {
        var unitDirectory: String?
        /// The unit files traveltimes wrote there.
        var units: [String]
        var enabledTimers: [String]
        /// Whether the crontab has the traveltimes block; null when there is no crontab command.
        var cronBlock: Bool?
        var summary: String

        init(_ installed: Installation.Installed) {
            unitDirectory = installed.unitDirectory
            units = installed.units
            enabledTimers = installed.enabledTimers
            cronBlock = installed.cronBlock
            summary = installed.summary
        }
    }

    var store: String
    var timeZone: Zone?
    var source: String?
    var routes: Routes?
    var lastRefresh: LastRefresh?
    var favorites: Int?
    var schedules: Schedules?
    var pending: Pending?
    var lastAlert: LastAlert?
    /// Custom routes in the cache; null when it cannot be read.
    var customRoutes: Int?
    /// The pauses in force or to come; null when the schedules cannot be read.
    var pauses: [PauseJSON]?
    /// Each routing provider's requests today against its budget; null without custom routes or keys.
    var providers: [ProviderUsageJSON]?
    /// The transit feeds, as `transit list --json` shows them; null when transit.json cannot be read.
    var transit: [TransitFeedJSON]?
    var installed: InstalledJSON
    var errors: [String] = []

    init(store: String, installed: InstalledJSON) {
        self.store = store
        self.installed = installed
    }
}

extension StatusJSON {
    /// The report from what `Commute.storeStatus` read; `configuration` is nil when it could not be.
    init(_ status: Health.StoreStatus, configuration: Configuration?, _ commute: Commute, _ invocation: Invocation) throws {
        let calendar = commute.calendar
        func moment(_ date: Date) -> Moment { Moment(date: date, text: TimeFormatting.iso8601(date, calendar: calendar)) }
        self.init(store: commute.storeDirectory, installed: InstalledJSON(Commands.installed(invocation)))
        if let configuration {
            let (zone, source) = try invocation.timeZone(saved: configuration.timeZone)
            timeZone = Zone(name: zone.identifier, from: source, saved: configuration.timeZone)
            let secrets = configuration.accessCode.map { [$0] } ?? []
            self.source = FeedSource.effective(argument: nil, environment: invocation.environment, saved: configuration.source)
                .map { FeedSource.redact(FeedSource.display($0), secrets: secrets) }
        }
        if let cache = status.routes {
            let custom = cache.routes.filter { $0.custom != nil }
            customRoutes = custom.count
            if !custom.isEmpty || configuration?.providerKeys != nil {
                providers = ProviderUsageJSON.all(status.refreshLog, commute.configuration, day: commute.customRoutes.budgetDay, custom: custom)
            }
            routes = Routes(
                count: cache.routes.count, withoutData: cache.routes.count(where: { $0.status == .noData }),
                updatedAt: cache.routes.map(\.updatedAt).max().map(moment), fetchedAt: cache.fetchedAt.map(moment), from: cache.source,
                sources: (status.sources ?? []).map { Source(source: $0.source.label, updatedAt: $0.updatedAt.map(moment), stale: $0.staleness != nil) })
        }
        if let log = status.refreshLog, let attempt = log.lastAttemptAt, let result = log.lastResult {
            lastRefresh = LastRefresh(
                at: moment(attempt), result: DisplayText.line(result), lastSuccessAt: log.lastSuccessAt.map(moment),
                failuresInARow: log.failuresSinceSuccess)
        }
        transit = status.transit?.map { TransitFeedJSON($0.feed, state: $0.state, routes: $0.routes, calendar: calendar) }
        favorites = status.favorites
        if let book = status.schedules {
            schedules = Schedules(count: book.schedules.count, enabled: book.schedules.count(where: \.isEnabled))
        }
        pauses = status.pauses?.map(PauseJSON.init)
        if let plan = status.pending {
            pending = Pending(scheduled: plan.scheduled, deferred: plan.deferred, cap: plan.cap, plannedAt: plan.plannedAt.map(moment))
        }
        if let decisions = status.decisions, let last = decisions.last {
            let recent = decisions.filter { commute.now.timeIntervalSince($0.at) < 86_400 }
            lastAlert = LastAlert(
                at: moment(last.at), outcome: last.outcome.rawValue,
                lastDay: Dictionary(grouping: recent, by: \.outcome.rawValue).mapValues(\.count))
        }
        errors = status.errors.map { DisplayText.line(String(describing: $0)) }
    }
}
