import CommuteCore
import FoundationEssentials

extension Commands {
    enum PauseRemoveCommand {
        static let command = Command(
            name: "pause remove",
            summary: "End a pause now: its alerts are planned again",
            arguments: "N",
            positionals: 1...1,
            argumentValues: [.pauseNumber],
            options: [Options.yes, Options.now],
            discussion: "Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let text = invocation.arguments.positionals[0]
            guard text.count <= 7, text.allSatisfy(\.isASCIIDigit), let number = Int(text) else { throw CommuteError.unknownPause(DisplayText.line(text)) }
            let commute = try invocation.commute()
            let schedules = try commute.schedules.read().schedules
            guard let pause = try commute.schedules.read().pauses?.first(where: { $0.number == number }) else { throw CommuteError.unknownPause(text) }
            try invocation.confirm("This will end pause \(number) (\(describe(pause, schedules, commute))) now: its alerts are planned again.", question: "Remove it?")
            let removed = try commute.schedules.removePause(number)
            let summary = removed.summary
            invocation.io.out("Removed pause \(removed.change.number): \(describe(removed.change, schedules, commute)); \(summary.scheduled) alert\(summary.scheduled == 1 ? "" : "s") scheduled (cap \(summary.cap)).")
            invocation.report(summary)
        }
    }
}
