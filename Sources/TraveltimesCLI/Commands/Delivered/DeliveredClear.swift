import CommuteCore
import FoundationEssentials

extension Commands {
    enum DeliveredClearCommand {
        static let command = Command(
            name: "delivered clear",
            summary: "Dismiss the delivered alerts of one schedule, or all, where the channel can, and forget them",
            options: [
                schedule,
                all,
                Options.yes,
            ],
            discussion: """
                Dismisses the matching alerts still showing on every notifier that can (ntfy, the
                desktop), by the prefix of their keys, as each is recorded; then removes the matching
                ledger entries, so their alerts may be sent again. Asks first on a terminal; otherwise
                needs --yes.
                """
        ) { invocation in
            let prefix: ScheduleIDPrefix?
            let scope: String
            switch (invocation.isGiven(Self.schedule), invocation.isSet(Self.all)) {
            case (true, false):
                let chosen = try invocation.value(Self.schedule)
                prefix = chosen
                scope = "schedule \(chosen?.text ?? "")"
            case (false, true):
                prefix = nil
                scope = "everything"
            default:
                throw invocation.usage("Give exactly one of --schedule ID or --all.")
            }
            let commute = try invocation.commute()
            try invocation.confirm("This will dismiss and forget what was delivered for \(scope).", question: "Clear?")
            let dismissed = try commute.alerts.dismissOpenAlerts(ofSchedules: prefix, sender: invocation.sender(invocation.io))
            for change in dismissed {
                if let failure = change.result.failure {
                    invocation.io.err("traveltimes: cannot dismiss on \(change.notifier.summary): \(failure)")
                }
            }
            let cleared = dismissed.filter { $0.result == .delivered }.count
            if !dismissed.isEmpty { invocation.io.out("Dismissed \(cleared) of \(dismissed.count) alerts still showing.") }
            let removed = try commute.alerts.clearLedger(ofSchedules: prefix)
            invocation.io.out("Removed \(removed) ledger \(removed == 1 ? "entry" : "entries") for \(scope).")
        }

        static let schedule = scheduleIDPrefixOption(help: "This schedule's entries (an ID prefix; removed schedules too)")
        static let all = Flag("--all", help: "Every entry (schedules and delay watches)")
    }
}
