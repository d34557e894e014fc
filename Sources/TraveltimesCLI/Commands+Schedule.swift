import CommuteCore
import FoundationEssentials

extension Commands {
    static let timeHelp = "7:00, 07:00, 16:30, 7:00am or 4:30 PM"

    /// `Mon-Fri 7:00 AM`.
    static func presetHelp(_ preset: Schedule.Preset) -> String {
        "\(Schedule.daysLabel(preset.days) == "Weekdays" ? "Mon-Fri" : Schedule.daysLabel(preset.days)) \(preset.time.label)"
    }
    static let daysHelp = "weekdays, weekends, daily, or day names: mon,wed,fri"

    static let scheduleAdd = Command(
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

    /// Says, as warnings, why a schedule just saved may not do what its owner expects.
    static func warn(_ warnings: [Schedules.ScheduleWarning], about schedule: Schedule, _ invocation: Invocation) {
        for warning in warnings {
            switch warning {
            case .duplicate(let copy):
                invocation.io.warn(
                    "schedule \(shortID(copy)) already sends these alerts (\(copy.timeLabel) on \(copy.daysLabel)): each will come "
                        + "twice — remove one with `traveltimes schedule remove ID`")
            case .insideQuietHours(let window):
                invocation.io.warn(
                    "\(schedule.latestAlertTime.label) is inside quiet hours (\(window)): every alert of this schedule will be held "
                        + "back — change its time, or the quiet hours with `traveltimes config set quiet-hours`")
            }
        }
    }

    static let scheduleList = Command(
        name: "schedule list",
        summary: "List schedules (also: traveltimes schedule)",
        options: [
            OptionSpec(name: "--verbose", help: "Spell each schedule out in full, with its routes"),
            Options.json, Options.now,
        ]
    ) { invocation in
        let commute = try invocation.commute()
        let schedules = try commute.schedules.read().schedules
        if invocation.wantsJSON {
            try invocation.printJSON(schedules.map { ScheduleJSON($0, calendar: commute.calendar) })
            return
        }
        guard !schedules.isEmpty else {
            invocation.io.out("No schedules yet: add one with `traveltimes schedule add --preset morning`.")
            return
        }
        if invocation.arguments.has("--verbose") {
            let routes = try commute.routes.all().byID
            for schedule in schedules {
                invocation.io.out("\(shortID(schedule))  \(schedule.spokenLabel)")
                for id in schedule.routeIDs {
                    invocation.io.out("    \(AlertComposer.line(routeID: id, route: routes[id]))")
                }
            }
            return
        }
        // The smart-alert column appears only when some schedule has a threshold.
        let smart = schedules.contains { $0.smartLabel != nil }
        var table = Table([.left, .right, .left, .left, .left] + (smart ? [.left] : []))
        for schedule in schedules {
            table.add([
                shortID(schedule), schedule.timeLabel, schedule.daysLabel, routeCount(schedule.routeIDs.count),
                schedule.isEnabled ? "enabled" : "disabled",
            ] + (smart ? [schedule.smartLabel ?? "always"] : []))
        }
        invocation.io.out(table.render().joined(separator: "\n"))
    }

    static let scheduleShow = Command(
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
                let leave = LeaveTime.compute(for: schedule, routes: routes, arrival: fire, typical: commute.history.typicalLookup)
                io.out("    \(TimeFormatting.dayAndTime(leave.leave, calendar: commute.calendar))  leave, to arrive by \(commute.calendar.local(fire).time.label)")
            }
        }
    }

    static let scheduleEdit = Command(
        name: "schedule edit",
        summary: "Change a schedule's time, days or routes",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.scheduleID],
        options: [
            OptionSpec(name: "--at", value: "TIME", help: "New time of day: \(timeHelp) (an arrive-by schedule becomes a fixed one)"),
            arriveByOption, bufferOption, headsUpOption,
            OptionSpec(name: "--days", value: "DAYS", help: "New days: \(daysHelp)", values: .days),
            OptionSpec(name: "--route", value: "ID", help: "New routes (favorites), replacing the old; repeat or use commas", repeatable: true, values: .favoriteRouteID),
            OptionSpec(name: "--only-when-delayed", value: "MIN|auto|off", help: "Smart alert threshold in minutes, auto (from history), or off"),
            OptionSpec(name: "--notify", value: "NAMES|all", help: "Send to these notifiers (by name, comma-separated), or all again"),
            Options.now,
        ]
    ) { invocation in
        var draft = try scheduleDraft(invocation.arguments)
        let tuning = invocation.arguments.value("--buffer") != nil || invocation.arguments.value("--heads-up") != nil
        guard !draft.isEmpty || tuning else {
            throw invocation.usage("Nothing to change: give --at, --arrive-by, --buffer, --heads-up, --days, --route, --only-when-delayed or --notify.")
        }
        let commute = try invocation.commute()
        if tuning || invocation.arguments.value("--arrive-by") != nil {
            // The buffer and heads-up not given are kept; alone, they keep the arrival too.
            let current = try commute.schedule(matching: invocation.arguments.positionals[0])
            if invocation.arguments.value("--arrive-by") == nil {
                guard case .arriveBy = current.timing else {
                    throw invocation.usage("--buffer and --heads-up are for arrive-by schedules: give --arrive-by TIME too.")
                }
                draft.time = draft.time ?? current.time
            }
            draft.timing = try arriveBy(invocation.arguments, over: current.timing)
        }
        let edited = try commute.schedules.editSchedule(invocation.arguments.positionals[0], draft)
        invocation.io.out("Updated schedule \(shortID(edited.after)): \(try describe(edited.after, commute)).")
        warn(edited.warnings, about: edited.after, invocation)
        invocation.report(edited.summary)
    }

    static let scheduleEnable = Command(
        name: "schedule enable",
        summary: "Switch a schedule on",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.scheduleID],
        options: [Options.now]
    ) { invocation in
        try setEnabled(true, invocation)
    }

    static let scheduleDisable = Command(
        name: "schedule disable",
        summary: "Switch a schedule off; its pending alerts are withdrawn",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.scheduleID],
        options: [Options.now]
    ) { invocation in
        try setEnabled(false, invocation)
    }

    static let scheduleRemove = Command(
        name: "schedule remove",
        summary: "Delete a schedule and its pending alerts",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.scheduleID],
        options: [Options.yes, Options.now],
        discussion: "Asks first on a terminal; otherwise needs --yes."
    ) { invocation in
        let commute = try invocation.commute()
        let schedule = try commute.schedule(matching: invocation.arguments.positionals[0])
        try invocation.confirm(
            "This will stop notifications at \(schedule.timeLabel) on \(schedule.daysLabel).", question: "Remove it?")
        let removed = try commute.schedules.removeSchedule(schedule.id.uuidString)
        invocation.io.out("Removed schedule \(shortID(removed.change)) (\(removed.change.timeLabel) on \(removed.change.daysLabel)).")
        invocation.report(removed.summary)
    }

    private static func setEnabled(_ enabled: Bool, _ invocation: Invocation) throws {
        let commute = try invocation.commute()
        let edited = try commute.schedules.editSchedule(invocation.arguments.positionals[0], Schedules.ScheduleDraft(isEnabled: enabled))
        let (before, after, summary) = (edited.before, edited.after, edited.summary)
        let label = "\(after.timeLabel) on \(after.daysLabel)"
        switch (before.isEnabled, enabled) {
        case (true, true): invocation.io.out("Schedule \(shortID(after)) (\(label)) was already enabled.")
        case (false, false): invocation.io.out("Schedule \(shortID(after)) (\(label)) was already disabled.")
        case (_, true): invocation.io.out("Enabled schedule \(shortID(after)) (\(label)).")
        case (_, false): invocation.io.out("Disabled schedule \(shortID(after)) (\(label)): its alerts are no longer pending.")
        }
        invocation.report(summary)
    }

    static let arriveByOption = OptionSpec(
        name: "--arrive-by", value: "TIME", help: "Arrive by this time instead: the alert fires when you must leave")
    static let notifyOption = OptionSpec(
        name: "--notify", value: "NAMES", help: "Send only to these notifiers, by name (notify add --name), comma-separated (default: all)")
    static let bufferOption = OptionSpec(name: "--buffer", value: "DURATION", help: "With --arrive-by: minutes to spare (default 5m)")
    static let headsUpOption = OptionSpec(
        name: "--heads-up", value: "DURATION|off", help: "With --arrive-by: one more alert this long before the leave time, such as 15m (default: none)")

    /// An arrive-by schedule's timing from --buffer and --heads-up, over `current` (an edit keeps
    /// what is not given); the defaults for a new one, or one that was at a fixed time.
    static func arriveBy(_ arguments: ParsedArguments, over current: Schedule.Timing) throws -> Schedule.Timing {
        var (buffer, headsUp) = switch current {
        case .at: (Schedule.Timing.defaultBufferMinutes, Int?.none)
        case .arriveBy(let buffer, let headsUp): (buffer, headsUp)
        }
        let largest = Schedule.Timing.largestBufferMinutes
        if let text = arguments.value("--buffer") {
            guard let seconds = ScheduleParsing.duration(text), seconds % 60 == 0, seconds / 60 <= largest else {
                throw UsageError(message: "Invalid --buffer '\(DisplayText.line(text))': use whole minutes such as 5m or 0 (at most 3h).", command: "")
            }
            buffer = seconds / 60
        }
        if let text = arguments.value("--heads-up") {
            if text.lowercased() == "off" {
                headsUp = nil
            } else {
                guard let seconds = ScheduleParsing.duration(text), seconds % 60 == 0, (1...largest).contains(seconds / 60) else {
                    throw UsageError(message: "Invalid --heads-up '\(DisplayText.line(text))': use whole minutes such as 15m (1m to 3h), or off.", command: "")
                }
                headsUp = seconds / 60
            }
        }
        return .arriveBy(buffer: buffer, headsUp: headsUp)
    }

    /// The --at, --arrive-by, --buffer, --days and --route values, read and checked; nil fields
    /// were not given.
    static func scheduleDraft(_ arguments: ParsedArguments) throws -> Schedules.ScheduleDraft {
        var draft = Schedules.ScheduleDraft()
        if let text = arguments.value("--at") {
            guard arguments.value("--arrive-by") == nil else {
                throw UsageError(message: "Give --at or --arrive-by, not both.", command: "")
            }
            guard arguments.value("--buffer") == nil, arguments.value("--heads-up") == nil else {
                throw UsageError(message: "--buffer and --heads-up are for arrive-by schedules, not --at.", command: "")
            }
            draft.time = try ScheduleParsing.time(text)
            draft.timing = .at
        }
        if let text = arguments.value("--arrive-by") {
            draft.time = try ScheduleParsing.time(text)
            draft.timing = try arriveBy(arguments, over: .at)
        }
        if let text = arguments.value("--days") { draft.days = try ScheduleParsing.days(text) }
        if let text = arguments.value("--only-when-delayed") {
            let threshold = try ScheduleParsing.delayThreshold(text)
            draft.onlyWhenDelayedBy = .some(threshold.minutes)
            draft.onlyWhenAboveUsual = threshold.aboveUsual
        }
        if let text = arguments.value("--notify") {
            if text.trimmingWhitespace() == "all" {
                draft.notify = .some(nil)
            } else {
                guard let names = ScheduleParsing.notifierNames(text) else {
                    throw UsageError(message: "Invalid --notify '\(DisplayText.line(String(text.prefix(60))))': give notifier names (notify add --name), comma-separated, or all.", command: "")
                }
                draft.notify = .some(names)
            }
        }
        let routes = arguments.all("--route")
        if !routes.isEmpty {
            draft.routeIDs = try routes.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { try ScheduleParsing.routeID(String($0)) }
        }
        return draft
    }

    /// `7:00 AM on Weekdays, 2 routes (Everett-Seattle, Seattle-Bellevue via 90), enabled; next alert Wed, Nov 5, 7:00 AM`.
    static func describe(_ schedule: Schedule, _ commute: Commute) throws -> String {
        let routes = try commute.routes.all().byID
        let names = schedule.routeIDs.map { routes[$0]?.name ?? "Route \($0)" }.joined(separator: ", ")
        var text = "\(schedule.timeLabel) on \(schedule.daysLabel), \(routeCount(schedule.routeIDs.count)) (\(names))"
        if schedule.onlyWhenAboveUsual == true {
            text += ", only when slower than usual"
        } else if let threshold = schedule.onlyWhenDelayedBy {
            text += ", only when delayed \(threshold)+ min"
        }
        if let names = schedule.notify { text += ", to \(names.joined(separator: ", "))" }
        if case .arriveBy(let buffer, let headsUp) = schedule.timing {
            if buffer > 0 { text += ", \(buffer) min to spare" }
            if let headsUp { text += ", a heads-up \(headsUp) min before" }
        }
        switch try commute.schedules.nextAlert(for: schedule) {
        case nil where !schedule.isEnabled:
            text += ", disabled"
        case nil:
            break
        case .at(let next):
            text += "; next alert \(TimeFormatting.dayAndTime(next, calendar: commute.calendar))"
        case .leave(let leave):
            text += "; next: leave \(TimeFormatting.dayAndTime(leave.leave, calendar: commute.calendar)) to arrive by "
                + commute.calendar.local(leave.arrival).time.label
            switch leave.basis {
            case .current: break
            case .usual: text += " (on usual times)"
            case .typical: text += " (on its history: on time 9 times in 10)"
            case .noData: text += " (no travel times yet)"
            }
        }
        return text
    }
}

/// `schedule list --json`: a public contract.
struct ScheduleJSON: EveryKeyEncodable {
    var id: String
    var routeIDs: [String]
    var days: [Int]
    var hour: Int
    var minute: Int
    var enabled: Bool
    var createdAt: String
    var onlyWhenDelayedBy: Int?
    /// `--only-when-delayed auto`: onlyWhenDelayedBy stands in where history is thin.
    var onlyWhenAboveUsual: Bool
    var daysLabel: String
    var timeLabel: String
    /// `at` or `arrive-by`.
    var kind: String
    /// `"09:00"` for an arrive-by schedule; null for a fixed time.
    var arriveBy: String?
    var bufferMinutes: Int?
    var headsUpMinutes: Int?
    /// The notifiers it sends to, by name; null for every one.
    var notify: [String]?

    init(_ schedule: Schedule, calendar: ZonedCalendar) {
        id = schedule.id.lowercasedString
        routeIDs = schedule.routeIDs
        days = schedule.days.map(\.rawValue).sorted()
        hour = schedule.hour
        minute = schedule.minute
        enabled = schedule.isEnabled
        createdAt = TimeFormatting.iso8601(schedule.createdAt, calendar: calendar)
        onlyWhenDelayedBy = schedule.onlyWhenDelayedBy
        onlyWhenAboveUsual = schedule.onlyWhenAboveUsual ?? false
        daysLabel = schedule.daysLabel
        timeLabel = schedule.timeLabel
        notify = schedule.notify
        switch schedule.timing {
        case .at:
            kind = "at"
        case .arriveBy(let buffer, let headsUp):
            kind = "arrive-by"
            arriveBy = String(cFormat: "%02d:%02d", schedule.hour, schedule.minute)
            bufferMinutes = buffer
            headsUpMinutes = headsUp
        }
    }
}
