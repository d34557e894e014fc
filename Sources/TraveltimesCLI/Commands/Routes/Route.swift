import CommuteCore
import FoundationEssentials

extension Commands {
    enum RouteCommand {
        static let command = Command(
            name: "route",
            summary: "Show one route: its ends, times, delay, estimated arrival, and the schedules that use it",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.routeID],
            options: [Options.json, Options.now]
        ) { invocation in
            let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
            let commute = try invocation.commute()
            let detail = try commute.routes.routeDetail(id)
            if invocation.wantsJSON {
                let route = detail.route
                try invocation.printJSON(RouteDetailJSON(
                    route: RouteJSON(route, calendar: commute.calendar), startPoint: route.startPoint, endPoint: route.endPoint,
                    estimatedArrival: detail.estimatedArrival.map { TimeFormatting.iso8601($0, calendar: commute.calendar) },
                    favorite: detail.isFavorite, scheduleIDs: detail.schedules.map { $0.id.lowercasedString },
                    transit: route.isTransitFeed ? route.transit.map { TransitJSON($0, at: commute.now, calendar: commute.calendar) } : nil,
                    itineraries: route.provider?.isTransit == true
                        ? ItineraryJSON.list(route.transit, at: commute.now, calendar: commute.calendar) : nil,
                    estimate: route.provider?.isFreeFlow == true ? FreeFlowJSON(route) : nil))
                return
            }
            printDetail(detail, commute, invocation.io)
        }

        /// A planner's route: its next itineraries, when it was asked, its schedules, and the
        /// credit its data asks for.
        private static func printItineraries(_ route: Route, _ commute: Commute, _ io: TerminalIO) {
            let calendar = commute.calendar
            let coming = route.transit?.departures(after: commute.now) ?? []
            if coming.isEmpty {
                io.out("  Next:     no itinerary known from now on; the next refresh that needs it asks Transitous")
            } else {
                io.out("  Next:")
                for itinerary in coming.prefix(5) { io.out("    " + ItineraryText.line(itinerary, calendar: calendar, on: commute.now)) }
                // The alerts in force on the next one's way, once each.
                for notice in coming.first(where: { !$0.dropped })?.notices ?? [] { io.out("  Service alert: \(notice)") }
            }
            if case .provider(let custom) = route.kind, custom.fetchedAt != nil {
                io.out("  Asked:    \(TimeFormatting.moment(route.updatedAt, relativeTo: commute.now, calendar: calendar)) "
                    + "(\(TimeFormatting.age(commute.now.timeIntervalSince(route.updatedAt))) ago)")
            } else {
                io.out("  Asked:    not yet; the next refresh that needs it asks Transitous")
            }
            let schedules = (try? commute.routes.routeDetail(route.id).schedules) ?? []
            io.out("  Schedules: " + (schedules.isEmpty ? "none" : schedules.map { "\(shortID($0)) \($0.timeLabel) on \($0.daysLabel)" }.joined(separator: "; ")))
            io.out(Transitous.attribution)
        }

        /// A route's card: its name, ends, source, times, arrival, age, and the schedules using it.
        private static func printDetail(_ detail: Routes.RouteDetail, _ commute: Commute, _ io: TerminalIO) {
            let (route, schedules, arrival) = (detail.route, detail.schedules, detail.estimatedArrival)
            let calendar = commute.calendar
            io.out("\(route.name) (route \(route.id))\(detail.isFavorite ? "  * favorite" : "")")
            if let description = route.description.map(DisplayText.line), description != route.name { io.out("  \(description)") }
            if let start = route.startPoint { io.out("  From:     \(describe(start))") }
            if let end = route.endPoint { io.out("  To:       \(describe(end))") }
            if case .provider(let custom) = route.kind {
                io.out("  From:     \(commute.places.name(of: custom.from).map { "\($0) (\(custom.from))" } ?? custom.from.description)")
                io.out("  To:       \(commute.places.name(of: custom.to).map { "\($0) (\(custom.to))" } ?? custom.to.description)")
                io.out("  Source:   \(custom.provider.displayName) (\(custom.provider.isTransit ? "door-to-door public transport, no key" : custom.provider.isFreeFlow ? "an open routing engine, no key" : "a custom route"))")
            }
            if route.provider?.isTransit == true {
                printItineraries(route, commute, io)
                return
            }
            if case .transitFeed(let transit) = route.kind {
                io.out("  From:     \(transit.fromName ?? "?") (stop \(transit.fromStop))")
                io.out("  To:       \(transit.toName ?? "?") (stop \(transit.toStop))")
                io.out("  Source:   transit feed \(transit.feed), \(transit.line.map { "line \($0)" } ?? "any line")")
                io.out("  Next:     \(TransitText.departures(of: transit, at: commute.now, calendar: calendar))")
                for notice in TransitText.notices(of: transit) { io.out("  \(notice)") }
            }
            if let distance = route.distanceMiles { io.out("  Distance: \(commute.units.format(miles: distance))") }
            let usual = route.provider?.usualIsFreeFlow == true ? "without traffic" : "usually"
            if case .transitFeed(let transit) = route.kind {
                // Walk and ride of the next bus: its delay only when the realtime feed gives one.
                io.out("  Trip:     \(minutes(route.currentMinutes)) (walk \(transit.walkMinutes) min, then the ride; timetable \(minutes(route.averageMinutes)))")
                let next = transit.next(at: commute.now)
                let known = next.map { $0.chosen.delaySeconds != nil || $0.plannedIsLost } ?? false
                io.out("  Delay:    " + (known ? "\(route.delayMinutes.map(TimeFormatting.delay) ?? "-"), \(route.status.rawValue)"
                    : transit.realtimeAt == nil ? "unknown: timetable times, no live data" : "unknown: the realtime feed says nothing of the next bus"))
            } else if route.provider?.isFreeFlow == true {
                let margin = TimeFormatting.factor(commute.configuration.freeFlowMarginInForce)
                io.out("  Estimate: \(minutes(route.currentMinutes)), free-flow: no live traffic (arrive-by leave times allow × \(margin))")
                if route.suspiciousMinutes != nil { io.out("  Held back: \(route.suspicionText()); ignored until confirmed") }
            } else {
                io.out("  Now:      \(minutes(route.currentMinutes)) (\(usual) \(minutes(route.averageMinutes)))")
                if route.suspiciousMinutes != nil { io.out("  Held back: \(route.suspicionText()); ignored until confirmed") }
                io.out("  Delay:    \(route.delayMinutes.map(TimeFormatting.delay) ?? "-"), \(route.status.rawValue)")
            }
            if let arrival {
                io.out("  Arrive:   \(TimeFormatting.moment(arrival, relativeTo: commute.now, calendar: calendar)) if you leave now")
            }
            // The incident feed's notices on the route's roads, in force now (never minutes).
            for notice in commute.incidents.notices(for: [route.id])[route.id] ?? [] { io.out("  \(notice)") }
            if case .provider(let custom) = route.kind, custom.fetchedAt == nil {
                io.out("  Updated:  not fetched yet; the next refresh that needs it asks \(custom.provider.displayName)")
            } else {
                io.out("  Updated:  \(TimeFormatting.moment(route.updatedAt, relativeTo: commute.now, calendar: calendar)) "
                    + "(\(TimeFormatting.age(commute.now.timeIntervalSince(route.updatedAt))) ago)")
            }
            if let staleness = detail.source?.staleness { io.out("  \(describe(staleness, commute))") }
            defer { if let provider = route.provider, provider.isFreeFlow { io.out(RoutingAPI.engineAttribution(provider)) } }
            if schedules.isEmpty {
                io.out("  Schedules: none")
            } else {
                io.out("  Schedules:")
                for schedule in schedules {
                    io.out("    \(shortID(schedule))  \(schedule.timeLabel) on \(schedule.daysLabel)\(schedule.isEnabled ? "" : " (disabled)")")
                }
            }
        }
    }
}
