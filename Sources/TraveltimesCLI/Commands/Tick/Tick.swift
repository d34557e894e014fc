import CommuteCore
import FoundationEssentials

extension Commands {
    enum TickCommand {
        static let command = Command(
            name: "tick",
            summary: "Deliver the alerts that are due (run by cron every minute)",
            options: [Options.quiet, Options.now],
            discussion: """
                Each due occurrence is delivered once through every notifier, however many ticks run,
                with its words composed now from the freshest routes saved. One more than the grace
                window late (config set grace; default 10m) is recorded as missed, not delivered: a
                laptop waking at 9:00 does not burst out the 7:00 alert. A failed notifier is retried by
                later ticks while the grace window lasts. A tick killed while sending is recovered: two
                minutes on, a later tick sends that alert again — so across a crash an alert arrives at
                least once, perhaps twice, and the ledger says "resent after an interrupted tick".
                Health: when an alert due within lead would carry data older than stale-after (60m), or
                refreshes have failed that long, one health alert says what is wrong, since when, the
                fix and the alerts it touches, and one more says when it mends (config set
                stale-after; off for none). Quiet hours hold them; at most 4 a day.
                One notification per occurrence: where the channel can change one (ntfy, Telegram,
                Matrix, Discord, the desktop), the leave alert replaces its heads-up, a watch's
                "cleared" its "over", a health alert's "mended" the problem; a heads-up is revised when
                the leave time moves 3 minutes or more (on the other channels that is a new message,
                held in quiet hours); and where the channel can clear (ntfy, the desktop), an alert is
                dismissed once over: at its arrival, or alert-lifetime after it fired (default 2h).
                Install:  * * * * * traveltimes tick --quiet
                """
        ) { invocation in
            let commute = try invocation.commute()
            let io = invocation.io
            let report = try commute.alerts.tick(sender: invocation.sender(io)) { try invocation.providerAccess(commute.configuration) }
            // Missed alerts and failures are news, quiet or not: each is said once, when it happens.
            for missed in report.missed {
                io.err("traveltimes: missed \(missed.alert) due \(TimeFormatting.dayAndTime(missed.at, calendar: commute.calendar)): \(report.missedReasons[missed]?.description ?? "past its window"); not delivered")
            }
            // Under --quiet a notifier failing as it failed last time is not said again each minute:
            // said when it starts failing, or fails otherwise (`status` and `doctor` show it meanwhile).
            let repeats = invocation.isSet(Options.quiet) ? commute.alerts.repeatedFailures(report.failures) : []
            var said = 0
            for (index, failure) in report.failures.enumerated() {
                if repeats.contains(index) { continue }
                said += 1
                io.err("traveltimes: notifier \(failure.delivery.claim.notifier.id) failed for \(failure.delivery.message.id): \(failure.result.failure ?? ""); retrying while the grace window lasts")
            }
            // A health alert is sent once, not retried: a notifier that failed it is said now.
            for failure in report.healthFailures {
                said += 1
                io.err("traveltimes: notifier \(failure.delivery.claim.notifier.id) failed for \(failure.delivery.message.id): \(failure.result.failure ?? ""); `traveltimes doctor` keeps showing the problem")
            }
            // A revision is tried once; a clear is tried again each tick, a few times, so under
            // --quiet only the revisions are said.
            for change in report.tending.failures where change.message != nil || !invocation.isSet(Options.quiet) {
                let what = change.message == nil ? "clear" : "revise"
                io.err("traveltimes: notifier \(change.notifier.id) could not \(what) \(change.key): \(change.result.failure ?? "")")
            }
            if let summary = report.rescheduled { invocation.report(summary) }
            do {
                let outcomes = try commute.exports.publishAfterTick(report) {
                    HelperHTTPClient(helperPath: invocation.fetchHelperPath(), maximumBodyBytes: 1 << 20, environment: invocation.childEnvironment)
                }
                Commands.reportExportFailures(outcomes, io)
            } catch {
                io.warn("exports not sent: \(DisplayText.line(String(describing: error)))")
            }
            let failed = report.failures.count + report.healthFailures.count
            if failed > 0 { throw DeliveryFailed(count: failed, isQuietRepeat: said == 0) }
            if let error = report.healthError { throw HealthNotChecked(error: error) }
        }
    }
}
