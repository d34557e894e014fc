import CommuteCore
import FoundationEssentials

extension Commands {
    enum PauseCommand {
        static let command = Command(
            name: "pause",
            summary: "Pause alerts for some days (a holiday, a vacation): every schedule, or one",
            options: [
                until,
                from,
                schedule,
                reason,
                Options.now,
            ],
            discussion: """
                Dates are days in the schedules' zone, both included. A paused alert is neither planned
                nor sent: it takes no place under the cap, so later alerts take its place. Nothing is
                deleted, and the pause ends by itself. See `pause list`, `pause remove N`, `pause clear`.
                """
        ) { invocation in
            let commute = try invocation.commute()
            guard let untilText = try invocation.value(Self.until) else {
                throw invocation.usage("Missing --until DATE (the last day paused, such as 2026-11-27).")
            }
            let until = try date(untilText, "--until", commute, invocation)
            let from = try invocation.value(Self.from).map { try date($0, "--from", commute, invocation) } ?? commute.today
            guard until >= commute.today else { throw invocation.usage("--until \(until.iso) has passed: a pause is for days to come.") }
            guard from <= until else {
                throw invocation.usage("The pause ends (\(until.iso)) before it starts (\(from.iso)): --until is the last day paused.")
            }
            guard until.dayNumber - from.dayNumber < Pause.longestDays else {
                throw invocation.usage("A pause is at most \(Pause.longestDays) days; for longer, `traveltimes schedule disable`.")
            }
            var reason: String?
            if let text = try invocation.value(Self.reason)?.trimmingWhitespace(), !text.isEmpty {
                guard text.count <= Pause.longestReason, DisplayText.line(text) == text else {
                    throw invocation.usage("Invalid --reason: use at most \(Pause.longestReason) characters on one line, without control characters.")
                }
                reason = text
            }
            let added = try commute.schedules.addPause(from: from, until: until, schedule: try invocation.value(Self.schedule), reason: reason)
            let schedules = try commute.schedules.read().schedules
            invocation.io.out("Pause \(added.change.number): \(describe(added.change, schedules, commute)).")
            invocation.io.out("\(added.summary.scheduled) alert\(added.summary.scheduled == 1 ? "" : "s") scheduled (cap \(added.summary.cap)); paused days take no place.")
            invocation.report(added.summary)
        }

        static let until = Option<String>("--until", value: "DATE", help: "The last day paused: 2026-11-27, today or tomorrow", required: true)
        static let from = Option<String>("--from", value: "DATE", help: "The first day paused (default today)")
        static let schedule = Option<String>("--schedule", value: "ID", help: "Only this schedule (an ID prefix)", values: .scheduleID)
        static let reason = Option<String>("--reason", value: "TEXT", help: "A note to show with it (Thanksgiving)")
    }
}
