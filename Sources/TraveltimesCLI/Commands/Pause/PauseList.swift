import CommuteCore
import FoundationEssentials

extension Commands {
    enum PauseListCommand {
        static let command = Command(
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
    }
}
