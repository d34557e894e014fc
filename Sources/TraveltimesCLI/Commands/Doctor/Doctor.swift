import CommuteCore
import FoundationEssentials

extension Commands {
    enum DoctorCommand {
        static let command = Command(
            name: "doctor",
            summary: "Check everything unattended alerts need, and say how to fix what is wrong",
            options: [Options.json, Options.now],
            discussion: """
                Checks the store (readable and writable), the saved zone, the schedules, the source and
                a recent successful refresh, the fetch helper (this program, able to load
                libcurl), each notifier (a program found and executable where the tick will run it; a
                well-formed webhook) and what runs refresh and tick (systemd timers or the crontab
                block, for this binary and this store). Each problem comes with what to do. Nothing is
                sent and nothing is written: `traveltimes notify test` sends a sample.
                The verdict is what tick will do: alerts go out, go out carrying old travel times
                (refreshes failing, a source that stopped), or do not go out. Exit 0 when they go out
                with current times (warnings allowed), 1 otherwise.
                """
        ) { invocation in
            var doctor = Doctor(invocation)
            let checkup = try doctor.run()
            if invocation.wantsJSON {
                try invocation.printJSON(checkup)
            } else {
                let io = invocation.io
                let width = checkup.checks.map(\.check.count).max() ?? 0
                for finding in checkup.checks {
                    let label = finding.status.rawValue.padded(to: 9)
                        + finding.check.padded(to: width + 2)
                    io.out(label + DisplayText.line(finding.detail))
                    if let fix = finding.fix { io.out(String(repeating: " ", count: label.count) + "→ " + DisplayText.line(fix)) }
                }
                let warnings = checkup.checks.count(where: { $0.status == .warning })
                io.out("")
                io.out(!checkup.alertsWillGoOut ? "Alerts will not go out until the problems above are fixed."
                    : !checkup.alertsCurrent ? "Alerts will go out, but they will carry old travel times until the problems above are fixed."
                    : "Alerts will go out" + (warnings == 0 ? "." : " (\(warnings) \(warnings == 1 ? "warning" : "warnings") above)."))
            }
            let problems = checkup.checks.count(where: { $0.status == .problem })
            if problems > 0 { throw DoctorFoundProblems(count: problems, alertsGoOut: checkup.alertsWillGoOut) }
        }
    }
}

/// `doctor` found something that stops alerts. Exit 1.
struct DoctorFoundProblems: ProcessError, CustomStringConvertible {
    var count: Int
    /// Whether alerts go out all the same (with old travel times).
    var alertsGoOut: Bool
    var exitCode: ExitCode { .failure }
    var description: String {
        "\(count) \(count == 1 ? "problem" : "problems") to fix " + (alertsGoOut ? "before alerts carry current travel times" : "before alerts go out unattended")
    }
}
