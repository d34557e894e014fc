import CommuteCore
import FoundationEssentials

extension Commands {
    /// `pause list`, `pause remove`, `pause clear`: the words that follow `pause` as commands of
    /// their own (`pause --until DATE` adds one).
    static let pauseSubcommands = ["list", "remove", "clear"]

    static let pause = Command(
        name: "pause",
        summary: "Pause alerts for some days (a holiday, a vacation): every schedule, or one",
        options: [
            OptionSpec(name: "--until", value: "DATE", help: "The last day paused: 2026-11-27, today or tomorrow", required: true),
            OptionSpec(name: "--from", value: "DATE", help: "The first day paused (default today)"),
            OptionSpec(name: "--schedule", value: "ID", help: "Only this schedule (an ID prefix)", values: .scheduleID),
            OptionSpec(name: "--reason", value: "TEXT", help: "A note to show with it (Thanksgiving)"),
            Options.now,
        ],
        discussion: """
            Dates are days in the schedules' zone, both included. A paused alert is neither planned
            nor sent: it takes no place under the cap, so later alerts take its place. Nothing is
            deleted, and the pause ends by itself. See `pause list`, `pause remove N`, `pause clear`.
            """
    ) { invocation in
        let commute = try invocation.commute()
        guard let untilText = invocation.arguments.value("--until") else {
            throw invocation.usage("Missing --until DATE (the last day paused, such as 2026-11-27).")
        }
        let until = try date(untilText, "--until", commute, invocation)
        let from = try invocation.arguments.value("--from").map { try date($0, "--from", commute, invocation) } ?? commute.today
        guard until >= commute.today else { throw invocation.usage("--until \(until.iso) has passed: a pause is for days to come.") }
        guard from <= until else {
            throw invocation.usage("The pause ends (\(until.iso)) before it starts (\(from.iso)): --until is the last day paused.")
        }
        guard until.dayNumber - from.dayNumber < Pause.longestDays else {
            throw invocation.usage("A pause is at most \(Pause.longestDays) days; for longer, `traveltimes schedule disable`.")
        }
        var reason: String?
        if let text = invocation.arguments.value("--reason")?.trimmingWhitespace(), !text.isEmpty {
            guard text.count <= Pause.longestReason, DisplayText.line(text) == text else {
                throw invocation.usage("Invalid --reason: use at most \(Pause.longestReason) characters on one line, without control characters.")
            }
            reason = text
        }
        let added = try commute.schedules.addPause(from: from, until: until, schedule: invocation.arguments.value("--schedule"), reason: reason)
        let schedules = try commute.schedules.read().schedules
        invocation.io.out("Pause \(added.change.number): \(describe(added.change, schedules, commute)).")
        invocation.io.out("\(added.summary.scheduled) alerts scheduled (cap \(added.summary.cap)); paused days take no place.")
        invocation.report(added.summary)
    }

    static let pauseList = Command(
        name: "pause list",
        summary: "List the pauses in force or to come",
        options: [Options.json, Options.now]
    ) { invocation in
        let commute = try invocation.commute()
        let pauses = try commute.schedules.pauses()
        if invocation.wantsJSON {
            try invocation.printJSON(pauses.map(PauseJSON.init))
            return
        }
        guard !pauses.isEmpty else {
            invocation.io.out("No pauses: `traveltimes pause --until DATE` holds alerts back for some days.")
            return
        }
        let schedules = try commute.schedules.read().schedules
        for pause in pauses { invocation.io.out("\(pause.number)  \(describe(pause, schedules, commute))") }
    }

    static let pauseRemove = Command(
        name: "pause remove",
        summary: "End a pause now: its alerts are planned again",
        arguments: "N",
        positionals: 1...1,
        argumentValues: [.pauseNumber],
        options: [Options.now]
    ) { invocation in
        let text = invocation.arguments.positionals[0]
        guard text.count <= 7, text.allSatisfy(\.isASCIIDigit), let number = Int(text) else { throw CommuteError.unknownPause(DisplayText.line(text)) }
        let commute = try invocation.commute()
        let schedules = try commute.schedules.read().schedules
        let removed = try commute.schedules.removePause(number)
        let summary = removed.summary
        invocation.io.out("Removed pause \(removed.change.number): \(describe(removed.change, schedules, commute)); \(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
        invocation.report(summary)
    }

    static let pauseClear = Command(
        name: "pause clear",
        summary: "Remove every pause",
        options: [Options.now]
    ) { invocation in
        let commute = try invocation.commute()
        let cleared = try commute.schedules.clearPauses()
        let (count, summary) = (cleared.change, cleared.summary)
        invocation.io.out(count == 0 ? "No pauses to remove." : "Removed \(count) pause\(count == 1 ? "" : "s"); \(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
        invocation.report(summary)
    }

    /// `all schedules, Thu, Nov 26 – Fri, Nov 27 (Thanksgiving)`.
    static func describe(_ pause: Pause, _ schedules: [Schedule], _ commute: Commute) -> String {
        let year = commute.today.year
        var text: String
        if let id = pause.scheduleID {
            text = schedules.first { $0.id == id }.map { "schedule \(shortID($0)) (\($0.timeLabel) on \($0.daysLabel))" }
                ?? "schedule \(id.shortForm)"
        } else {
            text = "all schedules"
        }
        text += pause.from == pause.until
            ? ", \(TimeFormatting.day(pause.from, thisYear: year))"
            : ", \(TimeFormatting.day(pause.from, thisYear: year)) – \(TimeFormatting.day(pause.until, thisYear: year))"
        if let reason = pause.reason { text += " (\(reason))" }
        return text
    }

    /// `2026-11-27`, `today`, `tomorrow`.
    private static func date(_ text: String, _ option: String, _ commute: Commute, _ invocation: Invocation) throws -> CivilDate {
        switch text.lowercased() {
        case "today": return commute.today
        case "tomorrow": return CivilDate(dayNumber: commute.today.dayNumber + 1)
        default:
            guard let date = CivilDate(iso: text) else {
                throw invocation.usage("Invalid \(option) '\(DisplayText.line(text))': use a date such as 2026-11-27, or today or tomorrow.")
            }
            return date
        }
    }
}

/// `pause list --json`: a public contract.
struct PauseJSON: EveryKeyEncodable {
    var number: Int
    /// `2026-11-26`: the first day paused, in the schedules' zone.
    var from: String
    /// The last day paused, included.
    var until: String
    /// Null for every schedule.
    var scheduleID: String?
    var reason: String?

    init(_ pause: Pause) {
        number = pause.number
        from = pause.from.iso
        until = pause.until.iso
        scheduleID = pause.scheduleID?.lowercasedString
        reason = pause.reason
    }
}
