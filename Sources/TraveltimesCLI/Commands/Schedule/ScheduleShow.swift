import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleShowCommand {
        static let command = Command(
            name: "schedule show",
            summary: "Show one schedule, its routes and its next alerts",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.scheduleID],
            options: [Options.json, Options.now]
        ) { invocation in
            let commute = try invocation.commute()
            let schedule = try commute.schedule(matching: invocation.arguments.positionals[0])
            if invocation.wantsJSON {
                try invocation.printJSON(ScheduleJSON(schedule, calendar: commute.calendar))
                return
            }
            let routes = try commute.routes.all().byID
            let io = invocation.io
            io.out("Schedule \(schedule.id.lowercasedString)")
            io.out("  \(schedule.spokenLabel)")
            io.out("  Time:    \(schedule.timeLabel)")
            io.out("  Days:    \(schedule.daysLabel)")
            io.out("  State:   \(schedule.isEnabled ? "enabled" : "disabled")")
            if schedule.onlyWhenAboveUsual == true, let threshold = schedule.onlyWhenDelayedBy {
                io.out("  Smart:   only when a route is slower than 9 times in 10 at that hour (+\(threshold) min where history is thin)")
            } else if let threshold = schedule.onlyWhenDelayedBy {
                io.out("  Smart:   only when a route is \(threshold)+ min over its usual time")
            }
            io.out("  Created: \(TimeFormatting.dayAndTime(schedule.createdAt, calendar: commute.calendar))")
            io.out("  Routes:")
            for id in schedule.routeIDs {
                io.out("    \(AlertComposer.line(routeID: id, route: routes[id]))")
            }
            guard schedule.isEnabled else { return }
            let fires = schedule.days.map {
                commute.calendar.nextFire(weekday: $0, hour: schedule.hour, minute: schedule.minute, after: commute.now)
            }.sorted()
            io.out("  Next alerts:")
            for fire in fires {
                switch schedule.timing {
                case .at:
                    io.out("    \(TimeFormatting.dayAndTime(fire, calendar: commute.calendar))")
                case .arriveBy:
                    // An arrive-by alert comes at the leave time, as `pending` shows it; the arrival after it.
                    let leave = LeaveTime.compute(for: schedule, routes: routes, arrival: fire, typical: commute.history.typicalLookup, freeFlowMargin: commute.configuration.freeFlowMarginInForce,
                        onTime: commute.history.onTimeLookup)
                    io.out("    \(TimeFormatting.dayAndTime(leave.leave, calendar: commute.calendar))  leave, to arrive by \(commute.calendar.local(fire).time.label)")
                }
            }
        }
    }
}
