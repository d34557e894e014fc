import CommuteCore
import FoundationEssentials

extension Commands {
    static let timeHelp = "7:00, 07:00, 16:30, 7:00am or 4:30 PM"

    /// `Mon-Fri 7:00 AM`.
    static func presetHelp(_ preset: Schedule.Preset) -> String {
        "\(Schedule.daysLabel(preset.days) == "Weekdays" ? "Mon-Fri" : Schedule.daysLabel(preset.days)) \(preset.time.label)"
    }
    static let daysHelp = "weekdays, weekends, daily, or day names: mon,wed,fri"

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

    static func setEnabled(_ enabled: Bool, _ invocation: Invocation) throws {
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

    /// The options `schedule add` and `schedule edit` share, each read as what it means; their
    /// words differ (`New time of day`), so each command has its own set.
    struct ScheduleOptions: Sendable {
        var at: Option<TimeOfDay>
        var days: Option<Set<Weekday>>
        var routes: Option<[RouteID]>
        var onlyWhenDelayed: Option<(minutes: Int?, aboveUsual: Bool)>
        var notify: Option<[String]?>

        static let arriveBy = Option<TimeOfDay>(
            "--arrive-by", value: "TIME", help: "Arrive by this time instead: the alert fires when you must leave", parse: { try ScheduleParsing.time($0) })
        static let buffer = Option<Int>(
            "--buffer", value: "DURATION", help: "With --arrive-by: minutes to spare at the destination, by car or by bus (default 5m)",
            parse: { text in
                guard let seconds = ScheduleParsing.duration(text), seconds % 60 == 0, seconds / 60 <= Schedule.Timing.largestBufferMinutes else {
                    throw UsageError(message: "Invalid --buffer '\(DisplayText.line(text))': use whole minutes such as 5m or 0 (at most 3h).", command: "")
                }
                return seconds / 60
            })
        /// A share in percent, or nil for `off`.
        static let onTime = Option<Int?>(
            "--on-time", value: "P%|off",
            help: "With --arrive-by: leave so as to arrive on time P% of the recorded days (such as 95%), from the route's history",
            parse: { text in
                if text.lowercased() == "off" { return nil }
                let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
                guard digits.count <= 3, digits.allSatisfy(\.isASCIIDigit), let percent = Int(digits), Schedule.onTimePercents.contains(percent) else {
                    throw UsageError(message: ModelError.badOnTime(DisplayText.line(String(text.prefix(20)))).description + ".", command: "")
                }
                return percent
            })
        /// Minutes, or nil for `off`.
        static let headsUp = Option<Int?>(
            "--heads-up", value: "DURATION|off", help: "With --arrive-by: one more alert this long before the leave time, such as 15m (default: none)",
            parse: { text in
                if text.lowercased() == "off" { return nil }
                guard let seconds = ScheduleParsing.duration(text), seconds % 60 == 0,
                    (1...Schedule.Timing.largestBufferMinutes).contains(seconds / 60)
                else {
                    throw UsageError(message: "Invalid --heads-up '\(DisplayText.line(text))': use whole minutes such as 15m (1m to 3h), or off.", command: "")
                }
                return seconds / 60
            })

        static func at(help: String) -> Option<TimeOfDay> { Option("--at", value: "TIME", help: help, parse: { try ScheduleParsing.time($0) }) }
        static func days(help: String) -> Option<Set<Weekday>> { Option("--days", value: "DAYS", help: help, values: .days, parse: { try ScheduleParsing.days($0) }) }
        /// Each `--route` may hold several IDs, comma-separated.
        static func routes(help: String) -> Option<[RouteID]> {
            Option("--route", value: "ID", help: help, repeatable: true, values: .favoriteRouteID) { text in
                try text.split(separator: ",", omittingEmptySubsequences: false).map { try ScheduleParsing.routeID(String($0)) }
            }
        }
        static func onlyWhenDelayed(value: String, help: String) -> Option<(minutes: Int?, aboveUsual: Bool)> {
            Option("--only-when-delayed", value: value, help: help, parse: { try ScheduleParsing.delayThreshold($0) })
        }
        /// Names, or nil for `all`.
        static func notify(value: String, help: String) -> Option<[String]?> {
            Option("--notify", value: value, help: help) { text in
                if text.trimmingWhitespace() == "all" { return nil }
                guard let names = ScheduleParsing.notifierNames(text) else {
                    throw UsageError(
                        message: "Invalid --notify '\(DisplayText.line(String(text.prefix(60))))': give notifier names (notify add --name), comma-separated, or all.",
                        command: "")
                }
                return names
            }
        }
    }

    /// An arrive-by schedule's timing from --buffer and --heads-up, over `current` (an edit keeps
    /// what is not given); the defaults for a new one, or one that was at a fixed time.
    static func arriveBy(_ invocation: Invocation, over current: Schedule.Timing) throws -> Schedule.Timing {
        var (buffer, headsUp) = switch current {
        case .at: (Schedule.Timing.defaultBufferMinutes, Int?.none)
        case .arriveBy(let buffer, let headsUp): (buffer, headsUp)
        }
        if let given = try invocation.value(ScheduleOptions.buffer) { buffer = given }
        if let given = try invocation.value(ScheduleOptions.headsUp) { headsUp = given }
        return .arriveBy(buffer: buffer, headsUp: headsUp)
    }

    /// Whether --buffer, --heads-up or --on-time was given: what only an arrive-by schedule has.
    static func tunesArrival(_ invocation: Invocation) -> Bool {
        invocation.isGiven(ScheduleOptions.buffer) || invocation.isGiven(ScheduleOptions.headsUp) || invocation.isGiven(ScheduleOptions.onTime)
    }

    /// The --at, --arrive-by, --buffer, --days and --route values, read and checked; nil fields
    /// were not given.
    static func scheduleDraft(_ invocation: Invocation, _ options: ScheduleOptions) throws -> Schedules.ScheduleDraft {
        var draft = Schedules.ScheduleDraft()
        let arriveBy = try invocation.value(ScheduleOptions.arriveBy)
        if let time = try invocation.value(options.at) {
            guard arriveBy == nil else { throw UsageError(message: "Give --at or --arrive-by, not both.", command: "") }
            guard !tunesArrival(invocation) else {
                throw UsageError(message: "--buffer, --heads-up and --on-time are for arrive-by schedules, not --at.", command: "")
            }
            draft.time = time
            draft.timing = .at
        }
        if let arriveBy {
            draft.time = arriveBy
            draft.timing = try Commands.arriveBy(invocation, over: .at)
        }
        if let percent = try invocation.value(ScheduleOptions.onTime) { draft.onTimePercent = .some(percent) }
        if let days = try invocation.value(options.days) { draft.days = days }
        if let threshold = try invocation.value(options.onlyWhenDelayed) {
            draft.onlyWhenDelayedBy = .some(threshold.minutes)
            draft.onlyWhenAboveUsual = threshold.aboveUsual
        }
        if let names = try invocation.value(options.notify) { draft.notify = .some(names) }
        let routes = try invocation.values(options.routes)
        if !routes.isEmpty { draft.routeIDs = routes.flatMap { $0 } }
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
            if let percent = schedule.onTimePercent { text += ", on time \(percent)% of the time" }
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
            case .freeFlow: text += " (free-flow estimate × \(TimeFormatting.factor(leave.margin ?? LeaveTime.defaultFreeFlowMargin)), no live traffic)"
            case .noData: text += " (no travel times yet)"
            case .onTime:
                if let onTime = leave.onTime, let planned = onTime.planned {
                    text += " (on time \(onTime.percent)%: \(TypicalTime.text(planned.minutes)) min on \(planned.days) recorded days"
                        + (onTime.deviation.map { $0 == 0 ? "" : ", \($0 > 0 ? "+" : "")\($0) min today" } ?? "") + ")"
                }
            }
            if leave.basis != .onTime, let onTime = leave.onTime {
                text += " (--on-time \(onTime.percent)%: \(onTime.days) recorded days of \(DepartureTimes.minimumDays) needed; on today's times)"
            }
        }
        return text
    }
}

/// `schedule list --json`: a public contract.
struct ScheduleJSON: EveryKeyEncodable {
    var id: String
    var routeIDs: [RouteID]
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
    /// `--on-time P%`: the share of recorded days the leave time is planned to arrive on time.
    var onTimePercent: Int?
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
        onTimePercent = schedule.onTimePercent
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
