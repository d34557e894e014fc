import CommuteCore
import FoundationEssentials

extension Commands {
    enum PendingCommand {
        static let command = Command(
            name: "pending",
            summary: "List the scheduled alerts, soonest first, with their content; and any the cap deferred",
            options: [
                all,
                Options.json, Options.now,
            ],
            discussion: """
                Each scheduled alert is shown with what it would say now; tick composes the words again
                at delivery, from the freshest routes saved. A deferred alert is one line: it is planned
                as earlier ones fire. The soonest \(deferredShown) are listed and the rest counted; --all
                lists every one. --json gives every field, every deferred alert's content included.
                """
        ) { invocation in
            let commute = try invocation.commute()
            let detail: Schedules.DeferredDetail = invocation.wantsJSON
                ? .everyWithContent : .soonest(invocation.isSet(Self.all) ? .max : deferredShown)
            let report = try commute.schedules.pendingReport(deferred: detail)
            if invocation.wantsJSON {
                try invocation.printJSON(PendingJSON(report, calendar: commute.calendar))
                return
            }
            let io = invocation.io
            guard report.requested > 0 else {
                io.out("No alerts pending: add a schedule with `traveltimes schedule add --preset morning`.")
                return
            }
            io.out("\(report.requests.count) alert\(report.requests.count == 1 ? "" : "s") scheduled (cap \(report.cap)); \(report.deferredCount) deferred.")
            if !report.pauses.isEmpty {
                let schedules = try commute.schedules.read().schedules
                for pause in report.pauses { io.out("Paused: \(describe(pause, schedules, commute)).") }
            }
            printScheduled(report.requests, commute, io)
            guard report.deferredCount > 0 else { return }
            io.out("")
            io.out("Deferred — over the cap of \(report.cap); scheduled as earlier alerts fire:")
            io.writeOut(deferredLines(report, calendar: commute.calendar))
        }

        /// How many deferred alerts `pending` lists without --all: at scale there are thousands.
        static let deferredShown = 20

        /// The deferred alerts listed, a line each, and how many more there are: written straight out,
        /// as there may be thousands (our own text, nothing to neutralise).
        private static func deferredLines(_ report: Schedules.PendingReport, calendar: ZonedCalendar) -> String {
            let times = report.deferred.map { TimeFormatting.dayAndTime($0.request.nextFire, calendar: calendar) }
            let width = times.map(\.count).max() ?? 0
            var text = ""
            text.reserveCapacity(report.deferred.count * (width + 22))
            for (item, time) in zip(report.deferred, times) {
                text += "  " + time + String(repeating: " ", count: width - time.count)
                text += "  schedule " + item.request.scheduleID.shortForm + "\n"
            }
            let unlisted = report.deferredCount - report.deferred.count
            if unlisted > 0 { text += "  … and \(unlisted) more: `traveltimes pending --all` lists every one.\n" }
            return text
        }

        /// Each scheduled alert: when, what it would say now, whether quiet hours hold it back, its ID.
        private static func printScheduled(_ requests: [Schedules.PendingItem], _ commute: Commute, _ io: TerminalIO) {
            let quietHours = commute.configuration.quietHours
            for item in requests {
                io.out("")
                io.out("\(TimeFormatting.dayAndTime(item.request.nextFire, calendar: commute.calendar))  \(item.content?.title ?? "")")
                for line in (item.content?.body ?? "").split(separator: "\n") { io.out("    \(line)") }
                if let quietHours, quietHours.contains(commute.calendar.local(item.request.nextFire).time) {
                    io.out("    held back: inside quiet hours (\(quietHours)); tick will not send it")
                }
                io.out("    id \(item.request.id)")
            }
        }

        static let all = Flag("--all", help: "List every deferred alert, not only the soonest \(deferredShown)")
    }
}
