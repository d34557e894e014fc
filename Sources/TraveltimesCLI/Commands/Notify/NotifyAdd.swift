import CommuteCore
import FoundationEssentials

extension Commands {
    enum NotifyAddCommand {
        static let command = Command(
            name: "notify add",
            summary: "Send alerts to a phone or chat (ntfy, Gotify, Pushover, Telegram, Matrix, Discord, Slack, email), the desktop, stdout, a program or a webhook",
            arguments: "URL | - | desktop | stdout | exec PROGRAM [ARG...] | webhook URL [--format F] [--header 'Name: value']... [--click URL]",
            positionals: 1...Int.max,
            argumentValues: [.words(["desktop", "stdout", "exec", "webhook"])],
            options: [
                name,
                force,
            ],
            discussion: """
                A URL in Apprise's form, pasted as it works there, meaning what it means there (each form
                is checked against Apprise itself):
                \(Channel.forms.map { "  " + $0 }.joined(separator: "\n"))
                Apprise's own options (cto=, rto=, emojis=, tz=, overflow=, store=) are taken and change
                nothing here; verify= only as yes, format= only as what is sent (text; Telegram's html).
                Any other option is refused, naming it, rather than dropped. Where ntfy's own
                rules differ from Apprise's, ntfy's are followed: a user with no password is refused
                (Apprise sends the word None as the password). Pushover's retry= is refused: Apprise
                means its own resend count by it; the emergency repeat is interval=.
                Its tokens and passwords are secrets, kept only in config.json (mode 0600) and shown as
                `…`: give the URL as - to read it from standard input, out of argv and shell history.
                ntfy (2.16 and later), Telegram, Matrix, Discord and the desktop change an alert in place
                when it changes, and ntfy and the desktop clear it when it is over; the others get a new
                message only when the change matters.
                desktop shows alerts with notify-send, changed in place and closed when over.
                exec runs the program directly (no shell) with {title}, {body}, {urgency} and {id} in its
                arguments replaced, and TRAVELTIMES_TITLE, TRAVELTIMES_BODY, TRAVELTIMES_URGENCY and
                TRAVELTIMES_ID in its environment; it must exit 0 within 10 s. A program that is not
                found on PATH, or not executable, is refused unless --force. For example:
                  traveltimes notify add exec notify-send -u {urgency} {title} {body}
                webhook POSTs each alert (--format ntfy, the default: the body as text, with Title,
                Priority and Tags headers; slack sends {"text"}, discord {"content"}, json the whole
                alert). --header 'Name: value' (repeatable) is sent with every alert, such as
                'Authorization: Bearer tk_…' for a protected ntfy topic; --click URL is what ntfy opens
                when the alert is tapped. A webhook URL is shown only as its host, and a header only by
                its name: they are secrets, kept only in config.json.
                --name NAME (before the notifier, or after a URL) names it, for schedule add --notify.
                With no notifier configured, alerts go to stdout (cron mails them).
                """,
            verbatimArguments: true
        ) { invocation in
            var words = invocation.arguments.positionals
            var name = try invocation.value(Self.name)
            // `--name NAME` after a URL, desktop or stdout (an exec's arguments are its own).
            if words.first != "exec", words.first != "webhook", let index = words.firstIndex(of: "--name"), index + 1 < words.count {
                name = words[index + 1]
                words.removeSubrange(index...(index + 1))
            }
            if let name, !NotifierName.isValid(name) {
                throw invocation.usage("Invalid --name '\(DisplayText.line(String(name.prefix(40))))': use a letter, then letters, digits, - or _ (32 at most).")
            }
            let kind = try notifierKind(words, invocation)
            let notifier = try invocation.commute().notifiers.addNotifier(kind, name: name)
            invocation.io.out("Added notifier \(notifier.id): \(notifier.summary).")
        }

        /// The notifier the words name. No message repeats a URL's credentials.
        private static func notifierKind(_ words: [String], _ invocation: Invocation) throws -> Notifier.Kind {
            switch words[0] {
            case "stdout" where words.count == 1: return .stdout
            case "desktop" where words.count == 1:
                // Checked as `exec notify-send` is: a desktop notifier with no notify-send never works.
                if !invocation.isSet(Self.force), let problem = ExecNotifier.problem(program: "notify-send", path: invocation.environment[.path]) {
                    throw invocation.usage("Cannot add desktop: notify-send: \(problem) (install libnotify-bin). Pass --force before desktop to add it anyway.")
                }
                return .desktop
            case "exec" where words.count >= 2:
                let program = words[1]
                var arguments = Array(words.dropFirst(2))
                // Words after the program are its own: one of ours there would be passed on silently,
                // so it is refused; after `--`, everything is the program's.
                let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
                if let ours = arguments[..<end].first(where: { word in command.options.contains { $0.name == word.split(separator: "=").first.map(String.init) } }) {
                    let option = ours.split(separator: "=").first.map(String.init) ?? ours
                    throw invocation.usage(
                        "'\(option)' after the program would be passed to it: give it before exec (notify add \(option)\(option == "--name" ? " NAME" : "") exec \(DisplayText.line(program)) …), or put -- before the program's arguments to pass it on.")
                }
                if end < arguments.endIndex { arguments.remove(at: end) }
                if !invocation.isSet(Self.force), let problem = ExecNotifier.problem(program: program, path: invocation.environment[.path]) {
                    throw invocation.usage("Cannot add exec \(DisplayText.line(program)): \(problem). Give the program's full path, or pass --force before exec to add it anyway.")
                }
                return .exec(program: program, arguments: arguments)
            case "exec": throw invocation.usage("exec needs a program: notify add exec PROGRAM [ARG...].")
            case "webhook": return try webhook(Array(words.dropFirst()), invocation)
            case "stdout", "desktop": throw invocation.usage("\(words[0]) takes no arguments.")
            case "-" where words.count == 1:
                guard let line = StandardInput.line(maximumBytes: 4_096) else {
                    throw invocation.usage("No URL on standard input (one line, at most 4 KiB): `printf '%s\\n' \"$URL\" | traveltimes notify add -`.")
                }
                return try channel(line, invocation, force: invocation.isSet(Self.force))
            case let url where words.count == 1 && Channel.looksLikeChannel(url):
                return try channel(url, invocation, force: invocation.isSet(Self.force))
            default:
                if Channel.looksLikeChannel(words[0]) { throw invocation.usage("A notifier URL takes nothing after it but --name NAME.") }
                // A URL of another kind may hold a credential: it is not repeated.
                let shown = words[0].contains(":") || words[0].contains("@") ? "that URL" : "'\(DisplayText.line(String(words[0].prefix(40))))'"
                var message = "Unknown notifier \(shown): use a URL (ntfys://, tgram://, mailto:…), desktop, stdout, exec or webhook."
                if let suggestion = Suggestions.closest(to: words[0], in: ["desktop", "stdout", "exec", "webhook"]) { message += " Did you mean '\(suggestion)'?" }
                throw invocation.usage(message)
            }
        }

        static let name = Option<String>("--name", value: "NAME", help: "What schedules call it: schedule add --notify NAME")
        static let force = Flag("--force", help: "Add an exec, desktop or mailto: notifier even if its program (or sendmail) is not found here")
    }
}
