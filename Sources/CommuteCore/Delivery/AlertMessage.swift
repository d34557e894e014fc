import Foundation

/// What a notifier is given to send.
public struct AlertMessage: Sendable, Equatable {
    public var id: String
    public var title: String
    public var body: String
    /// `normal` or `critical`, as notify-send spells it.
    public var urgency: String

    public init(id: String, title: String, body: String, urgency: String = "normal") {
        self.id = id
        self.title = title
        self.body = body
        self.urgency = urgency
    }
}

/// Runs an exec notifier: the program with its arguments (no shell), placeholders replaced, the
/// values in the environment too, stdout discarded, 10 seconds at most.
public enum ExecNotifier {
    public static let timeout: TimeInterval = 10

    /// Nil when it worked; otherwise why it did not.
    public static func send(_ message: AlertMessage, program: String, arguments: [String]) -> String? {
        let environment = [
            "TRAVELTIMES_TITLE": message.title, "TRAVELTIMES_BODY": message.body,
            "TRAVELTIMES_URGENCY": message.urgency, "TRAVELTIMES_ID": message.id,
        ]
        do {
            let (_, status) = try Subprocess.run(
                program, arguments: arguments.map { fill($0, message) }, environment: environment, input: Data(),
                timeout: timeout, maximumOutput: 1 << 20)
            return status == 0 ? nil : "\(program) exited with status \(status)"
        } catch Subprocess.Failure.timedOut {
            return "\(program) did not finish within \(Int(timeout)) s"
        } catch Subprocess.Failure.outputTooLarge {
            return "\(program) printed more than 1 MiB"
        } catch {
            return "cannot run \(program): \(error)"
        }
    }

    /// Replaces `{title}`, `{body}`, `{urgency}` and `{id}` in one pass, so a title that itself
    /// contains `{body}` stays as written.
    static func fill(_ argument: String, _ message: AlertMessage) -> String {
        let values = ["title": message.title, "body": message.body, "urgency": message.urgency, "id": message.id]
        var result = ""
        var rest = Substring(argument)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }
}
