import FoundationEssentials

/// Mails an alert through the machine's own `sendmail -t -oi`, as cron mails a job's output: the
/// recipients are read from the `To:` header, and a lone `.` in the body is text, not the end.
enum Sendmailer {
    static let timeout: TimeInterval = 30

    /// Where sendmail lives when PATH (cron's is `/usr/bin:/bin`) does not have it.
    static let usualPlaces = ["/usr/sbin/sendmail", "/usr/lib/sendmail"]

    /// The sendmail a `mailto:` notifier would run with `path` (cron's is `/usr/bin:/bin`), or nil.
    static func program(path: String?) -> String? {
        Subprocess.resolve("sendmail", path: path) ?? usualPlaces.first(where: { access($0, X_OK) == 0 })
    }

    static func perform(_ operation: AlertOperation, _ mail: Channel.Sendmail, environment: [String: String]) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("mail cannot be taken back once sent") }
        guard let program = program(path: environment[.path])
        else { return AlertReceipt(result: .failed(.couldNotRun(program: "sendmail", reason: "no sendmail on PATH or in /usr/sbin"))) }
        do {
            let (_, status) = try Subprocess.exchange(
                program, arguments: ["-t", "-oi"], environment: environment, input: Data(text(message, to: mail.recipients).utf8),
                timeout: timeout, maximumOutput: 65_536, ownGroup: true)
            guard status == 0 else { return AlertReceipt(result: .failed(.exited(program: "sendmail", status: status, errors: ""))) }
            return AlertReceipt(result: .delivered)
        } catch .timedOut {
            return AlertReceipt(result: .failed(.programTimedOut(program: "sendmail", seconds: Int(timeout))))
        } catch {
            return AlertReceipt(result: .failed(.couldNotRun(program: "sendmail", reason: String(describing: error))))
        }
    }

    /// The message: headers as cron writes them, a subject encoded when it is not ASCII, the body
    /// as UTF-8 text.
    static func text(_ message: AlertMessage, to recipients: [String]) -> String {
        let subject = DisplayText.line(message.title)
        let encoded = subject.unicodeScalars.allSatisfy(\.isASCII) ? subject : "=?UTF-8?B?\(Data(subject.utf8).base64EncodedString())?="
        let headers = [
            "To: \(recipients.joined(separator: ", "))",
            "Subject: \(encoded)",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "Auto-Submitted: auto-generated",
            "X-Traveltimes-Alert: \(DisplayText.line(message.id.description))",
        ]
        let body = message.body.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.line(String($0)) }
        return (headers + [""] + body).joined(separator: "\n") + "\n"
    }
}
