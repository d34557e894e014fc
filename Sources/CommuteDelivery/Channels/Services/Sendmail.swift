import Basics
import FoundationEssentials

extension Channel {
    /// Mail (`mailto:ADDRESS[,ADDRESS…]`), through the machine's own `sendmail -t -oi`, as cron
    /// mails a job's output: the recipients are read from the `To:` header, and a lone `.` in the
    /// body is text, not the end.
    public struct Sendmail: Sendable, Equatable {
        public var recipients: [String]
    }
}

extension Channel.Sendmail: ChannelService {
    static let kind = "email"
    static let schemes = ["mailto", "mailtos"]
    static let forms = ["mailto:ADDRESS[,ADDRESS…] (through this machine's sendmail)"]
    static let timeout: TimeInterval = 30

    /// Where sendmail lives when PATH (cron's is `/usr/bin:/bin`) does not have it.
    static let usualPlaces = ["/usr/sbin/sendmail", "/usr/lib/sendmail"]

    /// The sendmail a `mailto:` notifier would run with `path` (cron's is `/usr/bin:/bin`), or nil.
    static func program(path: String?) -> String? {
        Subprocess.resolve("sendmail", path: path) ?? usualPlaces.first(where: { access($0, X_OK) == 0 })
    }

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let rest = url.drop { $0 != ":" }.dropFirst()
        if rest.hasPrefix("//") {
            throw .init("SMTP (mailto://, mailtos://) is not supported: write mailto:ADDRESS to send through this machine's sendmail, as cron does")
        }
        // Apprise's mailto options (cc=, bcc=, from=, name=…) are its SMTP client's: sendmail takes
        // none of them, so they are refused rather than dropped.
        if let question = rest.firstIndex(of: "?") {
            let option = rest[rest.index(after: question)...].split(separator: "=").first.map { DisplayText.line(String($0.prefix(30))) } ?? ""
            throw .init("mailto option \(option)= is not one traveltimes takes (mailto:ADDRESS[,ADDRESS…] goes through this machine's sendmail): remove it")
        }
        let recipients = rest.split(separator: ",").map(String.init)
        let address = /^[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+$/
        guard !recipients.isEmpty, recipients.allSatisfy({ $0.wholeMatch(of: address) != nil }) else {
            throw .init("expected mailto:ADDRESS[,ADDRESS…], such as mailto:ada@example.com")
        }
        return .sendmail(.init(recipients: recipients))
    }

    var summary: String { "mailto:" + recipients.joined(separator: ",") }
    var listing: Channel.Listing { ("email", recipients.joined(separator: ","), [:], false) }
    var secrets: [String] { [] }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("mail cannot be taken back once sent") }
        guard let program = Self.program(path: sender.environment[.path])
        else { return AlertReceipt(result: .failed(.couldNotRun(program: "sendmail", reason: "no sendmail on PATH or in /usr/sbin"))) }
        do {
            let (_, status) = try Subprocess.exchange(
                program, arguments: ["-t", "-oi"], environment: sender.environment, input: Data(Self.text(message, to: recipients).utf8),
                timeout: Self.timeout, maximumOutput: 65_536, ownGroup: true)
            guard status == 0 else { return AlertReceipt(result: .failed(.exited(program: "sendmail", status: status, errors: ""))) }
            return AlertReceipt(result: .delivered)
        } catch .timedOut {
            return AlertReceipt(result: .failed(.programTimedOut(program: "sendmail", seconds: Int(Self.timeout))))
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
