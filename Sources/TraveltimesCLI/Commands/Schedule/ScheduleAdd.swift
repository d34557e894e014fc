import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleAddCommand {
        static let command = Command(
            name: "schedule add",
            summary: "Add a notification schedule",
            options: [
                preset, options.at, ScheduleOptions.arriveBy, ScheduleOptions.buffer, ScheduleOptions.headsUp, ScheduleOptions.onTime, options.days, options.routes,
                options.onlyWhenDelayed, options.notify, disabled, Options.now,
            ],
            discussion: """
                With no --route the schedule takes every favorite, in favorites order. --at and --days
                override the preset's; with neither a preset nor --at, --days, the morning preset applies.
                --arrive-by TIME instead of --at: the alert fires when it is time to leave, that is the
                arrival less the fastest route's current time (else its usual time; with neither, an hour
                before) less --buffer (default 5m), computed again at every refresh and at delivery.
                --on-time 95% plans it instead from the route's recorded days for that weekday: the
                latest departure that arrived in time on 95% of them, moved by how far today's live
                time is from usual; with fewer than 5 recorded days it plans on today's times and says so.
                """
        ) { invocation in
            var draft = try scheduleDraft(invocation, options)
            if !invocation.isGiven(ScheduleOptions.arriveBy), tunesArrival(invocation) {
                throw invocation.usage("--buffer, --heads-up and --on-time are for arrive-by schedules: give --arrive-by TIME too.")
            }
            if let preset = try invocation.value(Self.preset) {
                draft.time = draft.time ?? preset.time
                draft.days = draft.days ?? preset.days
            }
            if invocation.isSet(Self.disabled) { draft.isEnabled = false }
            let commute = try invocation.commute()
            let added = try commute.schedules.addSchedule(draft)
            let schedule = added.schedule
            invocation.io.out("Added schedule \(shortID(schedule)): \(try describe(schedule, commute)).")
            warn(added.warnings, about: schedule, invocation)
            if added.savedZone {
                let zone = commute.timeZone.identifier
                invocation.io.out(
                    "Schedules are in \(zone) from now on, whatever TZ cron runs with "
                        + "(change it with `traveltimes config set timezone ZONE`).")
                // A host on UTC saves UTC: said at once when a source keeps other clocks.
                if let other = commute.health.source(keepingOtherClocksThan: zone) {
                    invocation.io.warn(
                        "\(other.source) keeps \(other.zone)'s clocks, not \(zone)'s: if you live by them, run `traveltimes config set timezone \(other.zone)`")
                }
            }
            invocation.report(added.summary)
        }

        static let preset = Option<Schedule.Preset>(
            "--preset", value: "NAME", help: "morning (Mon-Fri 7:00 AM) or evening (Mon-Fri 4:30 PM)", values: .preset,
            read: { Schedule.Preset(rawValue: $0.lowercased()) }, invalid: { "Unknown preset '\($0)': use morning or evening." })
        static let disabled = Flag("--disabled", help: "Save it switched off")
        static let options = ScheduleOptions(
            at: ScheduleOptions.at(help: "Time of day: \(timeHelp)"),
            days: ScheduleOptions.days(help: "Days: \(daysHelp)"),
            routes: ScheduleOptions.routes(help: "A favorite route; repeat or use commas (default: all favorites)"),
            onlyWhenDelayed: ScheduleOptions.onlyWhenDelayed(
                value: "MIN|auto",
                help: "Smart alert: only when a route is MIN+ minutes over its usual time, or (auto) slower than its history's 9 times in 10"),
            notify: ScheduleOptions.notify(
                value: "NAMES", help: "Send only to these notifiers, by name (notify add --name), comma-separated (default: all)"))
    }
}
