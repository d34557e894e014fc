import Basics
import FoundationEssentials

/// Freedesktop notifications through `notify-send`: `--print-id` gives the notification's ID,
/// `--replace-id` changes it in place (libnotify 0.7.10 and later), and `gdbus` closes it. An
/// older notify-send, which knows neither, shows each alert as a new notification and cannot
/// close one. From cron or systemd the session bus must be named (`DBUS_SESSION_BUS_ADDRESS`),
/// as the README says.
enum DesktopNotifier {
    static let timeout: TimeInterval = 10

    static func perform(_ operation: AlertOperation, environment given: [String: String]) -> AlertReceipt {
        var environment = given
        // Cron and systemd give no session bus: the user's own, where systemd-logind puts it.
        if environment[.desktopBus] == nil, access("/run/user/\(getuid())/bus", F_OK) == 0 {
            environment[.desktopBus] = "unix:path=/run/user/\(getuid())/bus"
        }
        switch operation {
        case .send(let message): return show(message, replacing: nil, environment: environment)
        case .update(let message, let handle): return show(message, replacing: handle, environment: environment)
        case .clear(let handle):
            guard let id = UInt32(handle) else { return .cannot("not a notification ID: \(DisplayText.line(String(handle.prefix(20))))") }
            let arguments = [
                "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.Notifications.CloseNotification", String(id),
            ]
            return AlertReceipt(result: run("gdbus", arguments, environment: environment).result, handle: handle)
        }
    }

    private static func show(_ message: AlertMessage, replacing handle: String?, environment: [String: String]) -> AlertReceipt {
        let urgency = message.urgency == "critical" ? "critical" : "normal"
        let text = [DisplayText.line(message.title), message.body]
        var arguments = ["--print-id", "--app-name=traveltimes", "--urgency=\(urgency)"]
        if let handle, let id = UInt32(handle) { arguments.append("--replace-id=\(id)") }
        let answer = run("notify-send", arguments + ["--"] + text, environment: environment)
        if case .delivered = answer.result {
            let id = answer.output.trimmingWhitespace()
            return AlertReceipt(result: .delivered, handle: UInt32(id) != nil ? id : nil)
        }
        // An older notify-send refuses the options it does not know: the alert goes as a new one.
        let plain = run("notify-send", ["--app-name=traveltimes", "--urgency=\(urgency)", "--"] + text, environment: environment)
        return AlertReceipt(result: plain.result)
    }

    private static func run(_ program: String, _ arguments: [String], environment: [String: String]) -> (result: DeliveryResult, output: String) {
        do {
            let (output, status) = try Subprocess.exchange(
                program, arguments: arguments, environment: environment, input: Data(), timeout: timeout, maximumOutput: 4_096)
            guard status == 0 else { return (.failed(.exited(program: program, status: status, errors: "")), "") }
            return (.delivered, String(decoding: output, as: UTF8.self))
        } catch .timedOut {
            return (.failed(.programTimedOut(program: program, seconds: Int(timeout))), "")
        } catch {
            return (.failed(.couldNotRun(program: program, reason: String(describing: error))), "")
        }
    }
}
