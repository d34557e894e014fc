import CommuteCore
import FoundationEssentials

extension Commands {
    static let tick = Command(
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
        let report = try commute.alerts.tick(sender: invocation.sender(io))
        // Missed alerts and failures are news, quiet or not: each is said once, when it happens.
        for missed in report.missed {
            io.err("traveltimes: missed \(missed.alert) due \(TimeFormatting.dayAndTime(missed.at, calendar: commute.calendar)): \(report.missedReasons[missed]?.description ?? "past its window"); not delivered")
        }
        // Under --quiet a notifier failing as it failed last time is not said again each minute:
        // said when it starts failing, or fails otherwise (`status` and `doctor` show it meanwhile).
        let repeats = invocation.arguments.has("--quiet") ? commute.alerts.repeatedFailures(report.failures) : []
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
        for change in report.tending.failures where change.message != nil || !invocation.arguments.has("--quiet") {
            let what = change.message == nil ? "clear" : "revise"
            io.err("traveltimes: notifier \(change.notifier.id) could not \(what) \(change.key): \(change.result.failure ?? "")")
        }
        if let summary = report.rescheduled { invocation.report(summary) }
        let failed = report.failures.count + report.healthFailures.count
        if failed > 0 { throw DeliveryFailed(count: failed, isQuietRepeat: said == 0) }
        if let error = report.healthError { throw HealthNotChecked(error: error) }
    }

    static let test = Command(
        name: "test",
        summary: "Send a sample alert through the configured notifiers, after a delay",
        options: [
            OptionSpec(name: "--delay", value: "SECONDS", help: "Wait this long first (default 5; 0 to 300)"),
            Options.now,
        ],
        discussion: "The alert is built from the first three favorites' current data."
    ) { invocation in try sendTest(invocation, defaultDelay: 5) }

    static let notifyTest = Command(
        name: "notify test",
        summary: "Send a sample alert through every notifier now (traveltimes test, without the wait)",
        options: [
            OptionSpec(name: "--delay", value: "SECONDS", help: "Wait this long first (default 0; up to 300)"),
            Options.now,
        ]
    ) { invocation in try sendTest(invocation, defaultDelay: 0) }

    private static func sendTest(_ invocation: Invocation, defaultDelay: Double) throws {
        let delay = try invocation.arguments.value("--delay").map { text -> Double in
            guard let seconds = NumberParsing.decimal(text), (0...300).contains(seconds) else {
                throw invocation.usage("Invalid --delay '\(text)': use seconds from 0 to 300, such as 5 or 0.5.")
            }
            return seconds
        } ?? defaultDelay
        let commute = try invocation.commute()
        let notifiers = commute.configuration.effectiveNotifiers
        // Said before the wait, not after it (sendTestAlert checks again, for its other callers).
        guard try !commute.favorites.read().routeIDs.isEmpty else { throw CommuteError.nothingToBrief }
        if delay > 0 {
            invocation.io.err("Sending a test alert in \(Int(delay)) s…")
            sleepFor(delay)
        }
        let test = try commute.alerts.sendTestAlert(notifiers: notifiers, sender: invocation.sender(invocation.io))
        try report(test, of: notifiers.count, invocation.io)
    }

    /// Where the test alert went: the notifiers it reached in the parentheses, each that failed on
    /// a line of its own, with why (then exit 1).
    private static func report(_ test: Alerts.TestAlert, of count: Int, _ io: TerminalIO) throws {
        let failures = test.sent.filter { $0.result != .delivered }
        let delivered = test.sent.filter { $0.result == .delivered }.map(\.delivery.claim.notifier.summary)
        io.err(
            "Sent \"\(test.message.title)\" to \(delivered.count) of \(count) notifiers"
                + (delivered.isEmpty ? "." : " (\(delivered.joined(separator: "; "))).")
                + (failures.isEmpty ? "" : " Failed: \(failures.count)."))
        for failure in failures {
            io.err("traveltimes: failed: \(failure.delivery.claim.notifier.summary): \(failure.result.failure ?? "")")
        }
        if !failures.isEmpty { throw DeliveryFailed(count: failures.count) }
    }

    static let deliveredList = Command(
        name: "delivered",
        summary: "What tick delivered, missed or failed, newest first",
        options: [
            OptionSpec(name: "--schedule", value: "ID", help: "Only this schedule's alerts (an ID prefix)", values: .scheduleID),
            OptionSpec(name: "--since", value: "TIME", help: "Decisions at or after this ISO 8601 time (default: since yesterday began)"),
            OptionSpec(name: "--all", help: "Every decision the ledger keeps (\(Int(DeliveryLedger.retention / 86_400)) days)"),
            Options.json, Options.now,
        ],
        discussion: """
            Today's and yesterday's decisions, unless --since or --all says otherwise, in text and
            --json alike; the text says how many older ones it left out.
            """
    ) { invocation in
        let since = try deliveredSince(invocation)
        let commute = try invocation.commute()
        let report = try commute.alerts.delivered(since: since, schedules: try scheduleOption(invocation))
        let calendar = commute.calendar
        if invocation.wantsJSON {
            try invocation.printJSON(report.entries.map { entry in
                LedgerJSON(
                    requestID: entry.alert.description, occurrence: TimeFormatting.iso8601(entry.occurrence, calendar: calendar),
                    notifier: entry.notifier, outcome: entry.outcome.rawValue,
                    at: TimeFormatting.iso8601(entry.at, calendar: calendar), attempts: entry.attempts, reason: entry.reason,
                    key: entry.key?.description, handle: entry.handle, action: entry.lastAction,
                    leave: entry.leave.map { TimeFormatting.iso8601($0, calendar: calendar) })
            })
            return
        }
        // Older decisions are counted, not read: with --schedule, the count would be everyone's.
        let olderNote = invocation.arguments.value("--schedule") == nil
            ? "\(report.older) older \(report.older == 1 ? "decision" : "decisions") not shown: `traveltimes delivered --all` lists every one kept."
            : "Older decisions not shown: `--all` lists every one kept."
        guard !report.entries.isEmpty else {
            invocation.io.out(report.older > 0 ? "Nothing delivered since \(TimeFormatting.dayAndTime(report.since, calendar: calendar)); \(olderNote)" : "Nothing delivered yet.")
            return
        }
        var text = ledgerTable(report.entries, calendar: calendar)
        if report.older > 0 { text += "\n" + olderNote }
        invocation.io.out(text)
    }

    /// `--since TIME`, `--all` (the distant past), or neither (nil: the command's default).
    private static func deliveredSince(_ invocation: Invocation) throws -> Date? {
        switch (invocation.arguments.value("--since"), invocation.arguments.has("--all")) {
        case (let text?, false):
            guard let instant = ISO8601.parse(text)?.instant else {
                throw invocation.usage("Invalid --since '\(text)': use ISO 8601 with an offset, such as 2025-11-04T07:00:00-08:00.")
            }
            return instant
        case (nil, true): return .distantPast
        case (nil, false): return nil
        case (_?, true): throw invocation.usage("Give --since TIME or --all, not both.")
        }
    }

    /// The ledger's entries as a table, a line each.
    private static func ledgerTable(_ entries: [DeliveryLedger.Entry], calendar: ZonedCalendar) -> String {
        var table = Table([.left, .left, .left, .left, .left])
        table.add(["DUE", "OUTCOME", "ALERT", "NOTIFIER", "NOTE"])
        // A week holds a few dozen alerts, each decided once per notifier: each time and name is
        // written once.
        var times: [Date: String] = [:]
        var names: [AlertID: String] = [:]
        for entry in entries {
            let time = times[entry.occurrence] ?? TimeFormatting.dayAndTime(entry.occurrence, calendar: calendar)
            times[entry.occurrence] = time
            let name = names[entry.alert] ?? entry.alert.shortDescription
            names[entry.alert] = name
            // A change to a notification already out there says what it was: updated, cleared.
            let outcome = entry.action.map { entry.outcome == .failed ? "\($0.rawValue) failed" : $0.rawValue } ?? entry.outcome.rawValue
            table.add([time, outcome, name, entry.notifier.map(String.init) ?? "-", entry.reason ?? ""])
        }
        return table.render().joined(separator: "\n")
    }

    /// `--schedule ID`: the start of a schedule's ID, or nil without the option.
    private static func scheduleOption(_ invocation: Invocation) throws -> ScheduleIDPrefix? {
        guard let text = invocation.arguments.value("--schedule") else { return nil }
        // An empty prefix would match every schedule: only --all clears everything.
        guard let prefix = ScheduleIDPrefix(text) else {
            throw invocation.usage("Invalid --schedule '\(text)': give the start of a schedule ID (from `traveltimes schedule list`), or --all.")
        }
        return prefix
    }

    static let deliveredClear = Command(
        name: "delivered clear",
        summary: "Dismiss the delivered alerts of one schedule, or all, where the channel can, and forget them",
        options: [
            OptionSpec(name: "--schedule", value: "ID", help: "This schedule's entries (an ID prefix; removed schedules too)", values: .scheduleID),
            OptionSpec(name: "--all", help: "Every entry (schedules and delay watches)"),
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
        switch (invocation.arguments.value("--schedule"), invocation.arguments.has("--all")) {
        case (let text?, false):
            prefix = try scheduleOption(invocation)
            scope = "schedule \(text)"
        case (nil, true):
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

    static let notifyAdd = Command(
        name: "notify add",
        summary: "Send alerts to a phone or chat (ntfy, Gotify, Pushover, Telegram, Matrix, Discord, Slack, email), the desktop, stdout, a program or a webhook",
        arguments: "URL | - | desktop | stdout | exec PROGRAM [ARG...] | webhook URL [--format F] [--header 'Name: value']... [--click URL]",
        positionals: 1...Int.max,
        argumentValues: [.words(["desktop", "stdout", "exec", "webhook"])],
        options: [
            OptionSpec(name: "--name", value: "NAME", help: "What schedules call it: schedule add --notify NAME"),
            OptionSpec(name: "--force", help: "Add an exec notifier even if its program is not found here"),
        ],
        discussion: """
            A URL in Apprise's form, pasted as it works there:
              ntfy://HOST/TOPIC, ntfys://ntfy.sh/TOPIC (user:pass@ or tk_TOKEN@ for a protected topic)
              gotifys://HOST/APP_TOKEN   pover://USER_KEY@APP_TOKEN   tgram://BOT_TOKEN/CHAT_ID
              matrixs://ACCESS_TOKEN@HOST/#ROOM   discord://WEBHOOK_ID/WEBHOOK_TOKEN
              slack://T…/B…/X…   json://HOST/PATH, jsons://…   mailto:ADDRESS (this machine's sendmail)
            Its tokens and passwords are secrets, kept only in config.json (mode 0600) and shown as
            `…`: give the URL as - to read it from standard input, out of argv and shell history.
            ntfy (2.16 and later), Telegram, Matrix, Discord and the desktop change an alert in place
            when it changes, and ntfy and the desktop clear it when it is over; the others get a new
            message only when the change matters (see the README's channel table).
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
        var name = invocation.arguments.value("--name")
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
            if !invocation.arguments.has("--force"), let problem = ExecNotifier.problem(program: "notify-send", path: invocation.environment[.path]) {
                throw invocation.usage("Cannot add desktop: notify-send: \(problem) (install libnotify-bin). Pass --force before desktop to add it anyway.")
            }
            return .desktop
        case "exec" where words.count >= 2:
            let program = words[1]
            var arguments = Array(words.dropFirst(2))
            // Words after the program are its own: one of ours there would be passed on silently,
            // so it is refused; after `--`, everything is the program's.
            let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
            if let ours = arguments[..<end].first(where: { word in notifyAdd.options.contains { $0.name == word.split(separator: "=").first.map(String.init) } }) {
                let option = ours.split(separator: "=").first.map(String.init) ?? ours
                throw invocation.usage(
                    "'\(option)' after the program would be passed to it: give it before exec (notify add \(option)\(option == "--name" ? " NAME" : "") exec \(DisplayText.line(program)) …), or put -- before the program's arguments to pass it on.")
            }
            if end < arguments.endIndex { arguments.remove(at: end) }
            if !invocation.arguments.has("--force"), let problem = ExecNotifier.problem(program: program, path: invocation.environment[.path]) {
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
            return try channel(line, invocation)
        case let url where words.count == 1 && Channel.looksLikeChannel(url):
            return try channel(url, invocation)
        default:
            if Channel.looksLikeChannel(words[0]) { throw invocation.usage("A notifier URL takes nothing after it but --name NAME.") }
            // A URL of another kind may hold a credential: it is not repeated.
            let shown = words[0].contains(":") || words[0].contains("@") ? "that URL" : "'\(DisplayText.line(String(words[0].prefix(40))))'"
            var message = "Unknown notifier \(shown): use a URL (ntfys://, tgram://, mailto:…), desktop, stdout, exec or webhook."
            if let suggestion = Suggestions.closest(to: words[0], in: ["desktop", "stdout", "exec", "webhook"]) { message += " Did you mean '\(suggestion)'?" }
            throw invocation.usage(message)
        }
    }

    /// A notifier URL, parsed as Apprise parses it; why not, without repeating it.
    private static func channel(_ url: String, _ invocation: Invocation) throws -> Notifier.Kind {
        do {
            _ = try Channel(url: url)
        } catch {
            throw invocation.usage("Cannot add that URL: \(error.description).")
        }
        return .channel(url: url)
    }

    /// `webhook URL [--format F] [--header 'Name: value']... [--click URL]`, read with the same
    /// parser as every command's options. No message repeats a header's value or the URL's path.
    private static func webhook(_ words: [String], _ invocation: Invocation) throws -> Notifier.Kind {
        let usage = "notify add webhook URL [--format ntfy|slack|discord|json] [--header 'Name: value']... [--click URL]"
        let options = [
            OptionSpec(name: "--format", value: "FORMAT", help: ""),
            OptionSpec(name: "--header", value: "HEADER", help: "", repeatable: true),
            OptionSpec(name: "--click", value: "URL", help: ""),
        ]
        let parsed = try ArgumentParser.parse(words, options: options, positionals: 0...Int.max, command: "notify add")
        var format = WebhookNotifier.Format.ntfy
        if let text = parsed.value("--format") {
            guard let chosen = WebhookNotifier.Format(rawValue: text) else { throw invocation.usage("--format takes ntfy, slack, discord or json.") }
            format = chosen
        }
        guard parsed.positionals.count == 1, let url = parsed.positionals.first, WebhookNotifier.isWebhookURL(url) else {
            throw invocation.usage("webhook needs one http(s) URL: \(usage).")
        }
        let headers = parsed.all("--header")
        for header in headers {
            guard WebhookNotifier.isHeader(header), let value = header.split(separator: ":", maxSplits: 1).last,
                  !value.trimmingWhitespace().isEmpty
            else { throw invocation.usage("--header takes one line 'Name: value', such as 'Authorization: Bearer tk_…'.") }
        }
        let click = parsed.value("--click")
        if let click {
            guard format == .ntfy || format == .json else { throw invocation.usage("--click is for ntfy (or json) webhooks; \(format.rawValue) has no click URL.") }
            guard WebhookNotifier.isWebhookURL(click) else { throw invocation.usage("--click takes an http(s) URL.") }
        }
        return .webhook(url: url, format: format, headers: headers.isEmpty ? nil : headers, click: click)
    }

    static let notifyList = Command(
        name: "notify list",
        summary: "List notifiers (also: traveltimes notify)",
        options: [Options.json]
    ) { invocation in
        let configuration = try invocation.commute().configuration
        if invocation.wantsJSON {
            try invocation.printJSON(configuration.effectiveNotifiers.map(NotifierJSON.init))
            return
        }
        if configuration.notifiers?.isEmpty ?? true {
            invocation.io.out("No notifiers configured: alerts go to stdout. Add one with `traveltimes notify add`.")
            return
        }
        for notifier in configuration.effectiveNotifiers {
            invocation.io.out("\(notifier.id)  \(notifier.summary)")
        }
    }

    static let notifyRemove = Command(
        name: "notify remove",
        summary: "Remove a notifier by its number",
        arguments: "N",
        positionals: 1...1,
        argumentValues: [.notifierNumber],
        options: [Options.yes]
    ) { invocation in
        let text = invocation.arguments.positionals[0]
        guard let id = Int(text) else { throw invocation.usage("Invalid notifier number '\(text)': see `traveltimes notify list`.") }
        let commute = try invocation.commute()
        guard let notifier = commute.configuration.notifiers?.first(where: { $0.id == id }) else {
            throw invocation.usage("No notifier numbered \(id): see `traveltimes notify list`.")
        }
        try invocation.confirm("This will stop sending alerts to \(notifier.summary).", question: "Remove it?")
        try commute.notifiers.removeNotifier(id)
        invocation.io.out("Removed notifier \(id): \(notifier.summary).")
    }
}

/// Some notifiers failed this tick; they were ledgered and will be retried. Exit 1.
struct DeliveryFailed: ProcessError, CustomStringConvertible {
    var count: Int
    var isQuietRepeat = false
    var exitCode: ExitCode { .failure }
    var description: String { "\(count) \(count == 1 ? "delivery" : "deliveries") failed; see `traveltimes delivered`" }
}

/// `delivered --json`.
struct LedgerJSON: EveryKeyEncodable {
    var requestID: String
    var occurrence: String
    var notifier: Int?
    var outcome: String
    var at: String
    var attempts: Int
    var reason: String?
    /// The alert's key: one per occurrence, shared by the alerts that replace one another.
    var key: String?
    /// The channel's handle for the notification (ntfy's message ID, Telegram's message_id…).
    var handle: String?
    /// sent, updated, cleared, unchanged or failed; null for a decision that sent nothing.
    var action: String?
    /// An arrive-by alert's leave time as it said it.
    var leave: String?
}

/// `notify list --json`: a notifier in typed fields, with no secret among them.
struct NotifierJSON: EveryKeyEncodable {
    var id: Int
    var name: String?
    /// `stdout`, `desktop`, `exec`, `webhook`, or the service: `ntfy`, `gotify`, `pushover`,
    /// `telegram`, `matrix`, `discord`, `slack`, `json`, `email`.
    var kind: String
    /// Where it sends, without a secret; null where that is the secret itself.
    var target: String?
    var options: [String: Notifier.Setting]
    /// Whether its URL or headers hold credentials (never shown).
    var credentials: Bool
    /// The line `notify list` shows.
    var summary: String

    init(_ notifier: Notifier) {
        let parts = notifier.parts
        id = notifier.id
        name = notifier.name
        kind = parts.kind
        target = parts.target
        options = parts.options
        credentials = parts.credentials
        summary = notifier.summary
    }
}
