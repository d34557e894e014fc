import CommuteCore
import Foundation

extension Commands {
    static let status = Command(
        name: "status",
        summary: "Show the store, the zone, the data's age, counts, and what runs refresh and tick",
        options: [Options.now]
    ) { invocation in
        let store = try invocation.store()
        let io = invocation.io
        // Each domain is read on its own, so one unreadable file does not hide the others.
        var failures: [any Error] = []
        let configuration: Configuration?
        do {
            configuration = try store.configuration()
        } catch {
            configuration = nil
            failures.append(error)
        }
        let commute = try invocation.commute(store, configuration: configuration ?? .empty)
        let calendar = commute.calendar
        io.out("Store:      \(store.directory)")
        if let configuration {
            let (zone, source) = try invocation.timeZone(saved: configuration.timeZone)
            io.out("Time zone:  \(describe(zone, source, saved: configuration.timeZone))")
        } else {
            io.out("Time zone:  unknown: config.json cannot be read (times below are in \(commute.timeZone.identifier))")
        }
        do {
            let cache = try store.routes()
            if let newest = cache.routes.map(\.updatedAt).max() {
                let noData = cache.routes.count(where: { $0.status == .noData })
                io.out(
                    "Routes:     \(cache.routes.count) (\(noData) without data), updated "
                        + "\(TimeFormatting.moment(newest, relativeTo: commute.now, calendar: calendar)) "
                        + "(\(TimeFormatting.age(commute.now.timeIntervalSince(newest))) ago)")
            } else {
                io.out("Routes:     none yet — run `traveltimes refresh --source FILE`")
            }
            if let fetched = cache.fetchedAt {
                io.out(
                    "Refreshed:  \(TimeFormatting.moment(fetched, relativeTo: commute.now, calendar: calendar)) "
                        + "from \(cache.source ?? "?")")
            }
        } catch { failures.append(error) }
        do {
            let log = try store.refreshLog()
            if let attempt = log.lastAttemptAt, let result = log.lastResult {
                var line = "Last try:   \(TimeFormatting.moment(attempt, relativeTo: commute.now, calendar: calendar)): \(DisplayText.line(result))"
                if log.failuresSinceSuccess > 1 { line += " (\(log.failuresSinceSuccess) failures in a row)" }
                io.out(line)
            }
            let secrets = configuration?.accessCode.map { [$0] } ?? []
            let source = invocation.environment["TRAVELTIMES_SOURCE"] ?? configuration?.source
            io.out("Source:     \(source.map { FeedSource.redact(FeedSource.display($0), secrets: secrets) } ?? "not set — `traveltimes config set source URL`")")
        } catch { failures.append(error) }
        do {
            io.out("Favorites:  \(try store.favorites().routeIDs.count)")
        } catch { failures.append(error) }
        do {
            let schedules = try store.schedules().schedules
            io.out("Schedules:  \(schedules.count) (\(schedules.count(where: \.isEnabled)) enabled)")
        } catch { failures.append(error) }
        do {
            let pending = try store.pending()
            var line = "Pending:    \(pending.requests.count) scheduled (cap \(pending.cap)), \(pending.deferred.count) deferred"
            if let planned = pending.plannedAt {
                line += "; planned \(TimeFormatting.moment(planned, relativeTo: commute.now, calendar: calendar))"
            }
            io.out(line)
        } catch { failures.append(error) }
        do {
            let ledger = try store.ledger().entries.filter { $0.outcome != .claimed }
            if let last = ledger.last {
                let recent = ledger.filter { commute.now.timeIntervalSince($0.at) < 86_400 }
                let counts = Dictionary(grouping: recent, by: \.outcome.rawValue).mapValues(\.count)
                    .sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                io.out("Last alert: \(TimeFormatting.moment(last.at, relativeTo: commute.now, calendar: calendar)) "
                    + "\(last.outcome.rawValue); last 24 h: \(counts.isEmpty ? "none" : counts)")
            }
        } catch { failures.append(error) }
        io.out("Installed:  \(installed(invocation).summary)")
        if let first = failures.first {
            for error in failures.dropFirst() { _ = CLI.fail(error, io: io) }
            throw first
        }
    }

    /// This program's absolute path, for the crontab lines.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "traveltimes"
    }
}
