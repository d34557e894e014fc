import CommuteCore
import FoundationEssentials

extension Commands {
    enum StatusCommand {
        static let command = Command(
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
            let pauseLines = status.schedules.map { summary in (status.pauses ?? []).map { describe($0, summary.schedules, commute) } } ?? []
            // A transit feed's URLs are shown without their keys; its secrets are held back all the same.
            let io = invocation.io.redacting((status.transit ?? []).flatMap(\.feed.secrets))
            if invocation.wantsJSON {
                try invocation.printJSON(report, through: io)
            } else {
                printStatus(
                    report, sources: status.sources ?? [], pauseLines: pauseLines, transitFeeds: status.transit ?? [],
                    configurationRead: configuration != nil, commute: commute, io: io)
            }
            if let first = status.errors.first {
                for error in status.errors.dropFirst() { _ = CLI.fail(error, io: invocation.io) }
                throw first
            }
        }

        /// `status` as text, one line a part.
        private static func printStatus(
            _ report: StatusJSON, sources: [Routes.SourceAge], pauseLines: [String], transitFeeds: [(feed: TransitFeed, state: TransitState.FeedState?, routes: [RouteID])],
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
                let ages = sources.map { source in
                    let age = source.updatedAt.map { date in
                        "\(TimeFormatting.moment(date, relativeTo: commute.now, calendar: calendar)) (\(TimeFormatting.age(commute.now.timeIntervalSince(date))) ago\(source.staleness != nil ? ", stale" : ""))"
                    }
                    return (sources.count > 1 ? "\(source.source.label) " : "") + (age ?? (source.source.isTransit ? "timetable only" : "not fetched yet"))
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
                if !report.requestCosts.isEmpty {
                    io.out("Requests:   \(report.requestCosts.map(\.cost.summary).joined(separator: "; "))")
                }
            }
            if let favorites = report.favorites { io.out("Favorites:  \(favorites)") }
            if let schedules = report.schedules { io.out("Schedules:  \(schedules.count) (\(schedules.enabled) enabled)") }
            for text in pauseLines { io.out("Paused:     \(text)") }
            if let pending = report.pending {
                var line = "Pending:    \(pending.scheduled) scheduled (cap \(pending.cap)), \(pending.deferred) deferred"
                if let planned = pending.plannedAt { line += "; planned \(moment(planned))" }
                io.out(line)
            }
            if let following = commute.alerts.following() { io.out("Following:  \(following.summary)") }
            if let last = report.lastAlert {
                let counts = last.lastDay.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                io.out("Last alert: \(moment(last.at)) \(last.outcome); last 24 h: \(counts.isEmpty ? "none" : counts)")
            }
            io.out("Installed:  \(report.installed.summary)")
        }
    }
}
