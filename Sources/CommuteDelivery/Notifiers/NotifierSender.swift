import Basics
import FoundationEssentials

/// Sends alerts the ways `Notifier` names them: printed (to whatever the caller prints on), run
/// as a program, or posted to a webhook through the fetch helper.
public struct NotifierSender: AlertSender {
    /// Writes one alert's text for the stdout notifier.
    public var print: @Sendable (String) -> Void
    /// The program run as the fetch helper, for webhooks.
    public var helperPath: String
    /// What programs run with: the caller's environment without its secrets.
    let child: ChildEnvironment
    public var environment: [String: String] { child.variables }

    public init(print: @escaping @Sendable (String) -> Void, helperPath: String, environment: ChildEnvironment) {
        self.print = print
        self.helperPath = helperPath
        self.child = environment
    }

    public func send(_ message: AlertMessage, through notifier: Notifier) -> DeliveryResult {
        perform(.send(message), through: notifier).result
    }

    /// Sends, updates or clears. A notifier that cannot update sends the new words as a new
    /// message; one that cannot clear is not asked to (the caller checks `canClear`).
    public func perform(_ operation: AlertOperation, through notifier: Notifier) -> AlertReceipt {
        switch notifier.kind {
        case .desktop:
            return DesktopNotifier.perform(operation, environment: environment)
        case .channel(let url):
            do {
                let channel = try Channel(url: url)
                let receipt = ChannelSender(client: HelperHTTPClient(helperPath: helperPath, environment: child), environment: environment)
                    .perform(operation, on: channel)
                // Whatever the server said back is said without any part of the URL that may be secret.
                guard case .failed(let failure) = receipt.result else { return receipt }
                return AlertReceipt(result: .failed(failure.redacting(Channel.secretParts(of: url))), handle: receipt.handle)
            } catch {
                return AlertReceipt(result: .failed(.unsupported("the notifier's URL no longer reads: \(error.description)")))
            }
        case .stdout, .exec, .webhook:
            guard let message = operation.message else { return .cannot("\(notifier.summary) cannot take back what it sent") }
            return AlertReceipt(result: plainSend(message, through: notifier))
        }
    }

    private func plainSend(_ message: AlertMessage, through notifier: Notifier) -> DeliveryResult {
        switch notifier.kind {
        case .stdout:
            print("\(message.title)\n\(message.body)\n")
            return .delivered
        case .exec(let program, let arguments):
            return ExecNotifier.send(message, program: program, arguments: arguments, environment: environment)
        case .webhook(let url, let format, let headers, let click):
            return WebhookNotifier.send(
                message, to: url, format: format, headers: headers ?? [], click: click,
                client: HelperHTTPClient(helperPath: helperPath, environment: child))
        case .channel, .desktop:
            return perform(.send(message), through: notifier).result
        }
    }
}
