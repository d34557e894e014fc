import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleAddCommand {
        static let command = Command(
            name: "schedule add",
            summary: "Add a notification schedule",
            options: [
                OptionSpec(name: "--preset", value: "NAME", help: "morning (Mon-Fri 7:00 AM) or evening (Mon-Fri 4:30 PM)", values: .preset),
                OptionSpec(name: "--at", value: "TIME", help: "Time of day: \(timeHelp)"),
                arriveByOption, bufferOption, headsUpOption,
                OptionSpec(name: "--days", value: "DAYS", help: "Days: \(daysHelp)", values: .days),
                OptionSpec(name: "--route", value: "ID", help: "A favorite route; repeat or use commas (default: all favorites)", repeatable: true, values: .favoriteRouteID),
                OptionSpec(
                    name: "--only-when-delayed", value: "MIN|auto",
                    help: "Smart alert: only when a route is MIN+ minutes over its usual time, or (auto) slower than its history's 9 times in 10"),
                notifyOption,
                OptionSpec(name: "--disabled", help: "Save it switched off"),
                Options.now,
            ],
            discussion: """
                With no --route the schedule takes every favorite, in favorites order. --at and --days
                override the preset's; with neither a preset nor --at, --days, the morning preset applies.
                --arrive-by TIME instead of --at: the alert fires when it is time to leave, that is the
                arrival less the fastest route's current time (else its usual time; with neither, an hour
                before) less --buffer (default 5m), computed again at every refresh and at delivery.
                """
        ) { invocation in
            var draft = try scheduleDraft(invocation.arguments)
            if invocation.arguments.value("--arrive-by") == nil,
                invocation.arguments.value("--buffer") != nil || invocation.arguments.value("--heads-up") != nil
            {
                throw invocation.usage("--buffer and --heads-up are for arrive-by schedules: give --arrive-by TIME too.")
            }
            if let name = invocation.arguments.value("--preset") {
                guard let preset = Schedule.Preset(rawValue: name.lowercased()) else {
                    throw invocation.usage("Unknown preset '\(name)': use morning or evening.")
                }
                draft.time = draft.time ?? preset.time
                draft.days = draft.days ?? preset.days
            }
            if invocation.arguments.has("--disabled") { draft.isEnabled = false }
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

        static let notifyOption = OptionSpec(
            name: "--notify", value: "NAMES", help: "Send only to these notifiers, by name (notify add --name), comma-separated (default: all)")
    }
}
