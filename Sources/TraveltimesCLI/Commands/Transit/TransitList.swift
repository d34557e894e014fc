import CommuteCore
import FoundationEssentials

extension Commands {
    enum TransitListCommand {
        static let command = Command(
            name: "transit list",
            summary: "List the transit feeds: their URLs (keys hidden), when fetched, and the routes that use them",
            options: [Options.json, Options.now]
        ) { invocation in
            let commute = try invocation.commute()
            let feeds = try commute.transit.transitFeeds()
            let secrets = feeds.flatMap(\.feed.secrets)
            let io = invocation.io.redacting(secrets)
            if invocation.wantsJSON {
                try invocation.printJSON(feeds.map { TransitFeedJSON($0.feed, state: $0.state, routes: $0.routes, calendar: commute.calendar) }, through: io)
                return
            }
            guard !feeds.isEmpty else {
                io.out("No transit feeds. Add one: traveltimes transit add NAME --static URL [--realtime URL] [--alerts URL]")
                return
            }
            for (feed, state, routes) in feeds {
                io.out("\(feed.name)")
                for location in feed.locations { io.out("  \(location.kind.padded(to: 9)) \(TransitFeed.shown(location.text))") }
                if let headers = feed.headers, !headers.isEmpty { io.out("  headers   \(headers.map { "\($0.name): …" }.joined(separator: ", "))") }
                let moment = { (date: Date?) in date.map { TimeFormatting.moment($0, relativeTo: commute.now, calendar: commute.calendar) } ?? "never" }
                io.out("  timetable fetched \(moment(state?.fetchedAt)), checked \(moment(state?.checkedAt))\(state?.timeZone.map { "; zone \($0)" } ?? "")")
                if feed.realtimeURL != nil || feed.alertsURL != nil { io.out("  realtime  read \(moment(state?.realtimeFetchedAt ?? state?.alertsFetchedAt))") }
                io.out("  routes    \(routes.isEmpty ? "none" : routes.joined(separator: ", "))")
                for problem in state?.problemList ?? [] { io.out("  problem   \(problem)") }
            }
        }
    }
}
