import CommuteCore
import FoundationEssentials

/// One run of one command: its parsed words, the environment and the streams.
struct Invocation {
    let command: Command
    let arguments: ParsedArguments
    let environment: [String: String]
    let io: TerminalIO
    /// The real clock; `--now` overrides it.
    let clock: @Sendable () -> Date

    /// What a program it starts runs with: the environment without the product's secrets.
    var childEnvironment: ChildEnvironment { ChildEnvironment(environment) }

    func usage(_ message: String) -> UsageError { UsageError(message: message, command: command.name) }

    /// Colour: only on a terminal, never with `NO_COLOR` set (https://no-color.org) or `TERM=dumb`.
    var usesColor: Bool {
        io.outputIsTerminal && (environment[.noColor] ?? "").isEmpty && environment[.terminal] != "dumb"
    }

    /// Where the zone a command uses came from.
    enum ZoneSource: String, Equatable, Encodable {
        /// `TRAVELTIMES_TZ`, for this command only; it overrides the saved zone.
        case override = "TRAVELTIMES_TZ"
        /// The store's (`config set timezone`, or saved with the first schedule).
        case saved
        /// None is saved yet: `TZ`, else the system's. Saved when the first schedule is added.
        case host
    }

    /// The zone the schedules live in: `TRAVELTIMES_TZ` for this command, else the one saved in
    /// the store, else (nothing saved yet) `TZ`, else the system's. Once a zone is saved, plain
    /// `TZ` never changes it: cron on a UTC host delivers the 7:00 AM alert at 7:00 AM where the
    /// user is.
    func timeZone(saved: String?) throws(UsageError) -> (zone: IANAZone, source: ZoneSource) {
        if let name = environment[.timeZone], !name.isEmpty {
            guard let zone = IANAZone(identifier: name) else {
                throw usage("Unknown time zone '\(name)' in TRAVELTIMES_TZ: use an IANA name such as America/Los_Angeles.")
            }
            return (zone, zone.identifier == saved ? .saved : .override)
        }
        // The configuration is validated when read: a saved name is a zone.
        if let saved, let zone = IANAZone(identifier: saved) { return (zone, .saved) }
        return (hostTimeZone(), .host)
    }

    /// `TZ` when it names a zone, else the system's.
    func hostTimeZone() -> IANAZone {
        if let name = environment[.hostTimeZone].map({ $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }), !name.isEmpty,
            let zone = IANAZone(identifier: name)
        {
            return zone
        }
        return IANAZone.system
    }

    /// `--now` if given, else `TRAVELTIMES_NOW` (an offset-less time is read in `zone`), else the
    /// clock. The variable pins every command of a script or test run to one moment, as
    /// `SOURCE_DATE_EPOCH` pins a build; `--now` still wins for one command.
    func now(in zone: IANAZone) throws -> Date {
        let given: (text: String, origin: String)? =
            if let text = arguments.value(for: Options.now.spec) { (text, "--now") }
            else if let text = environment[.now], !text.isEmpty { (text, "TRAVELTIMES_NOW") }
            else { nil }
        guard let (text, origin) = given else { return clock() }
        guard let parsed = ISO8601.parse(text) else {
            throw usage("Invalid \(origin) '\(text)': use ISO 8601, such as 2025-11-04T07:00:00-08:00.")
        }
        let instant: Date
        if let exact = parsed.instant {
            instant = exact
        } else {
            let calendar = ZonedCalendar(timeZone: zone, around: Date())
            let minute = calendar.instant(on: parsed.date, hour: parsed.hour, minute: parsed.minute)
            instant = minute.addingTimeInterval(TimeInterval(parsed.second) + Double(parsed.milliseconds) / 1000)
        }
        // Alerts are planned up to two weeks on, and every date written must read back (years up
        // to 9999).
        guard Self.nowRange.contains(instant) else {
            throw usage("Invalid \(origin) '\(text)': use a time from 1970 to 9999-11-30.")
        }
        return instant
    }

    /// The instants `--now` may name.
    static let nowRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_399_622_400)

    /// The pending-request cap: `TRAVELTIMES_CAP`, else 64.
    func cap() throws(UsageError) -> Int {
        guard let text = environment[.cap], !text.isEmpty else { return FanOut.defaultCap }
        guard let cap = Int(text), (1...10_000).contains(cap) else {
            throw usage("Invalid TRAVELTIMES_CAP '\(text)': use a whole number from 1 to 10000.")
        }
        return cap
    }

    /// How long to wait for a store lock: `TRAVELTIMES_LOCK_TIMEOUT`, else 10 s.
    private func lockTimeout() throws(UsageError) -> TimeInterval {
        guard let text = environment[.lockTimeout], !text.isEmpty else { return Commute.defaultLockTimeout }
        guard let seconds = NumberParsing.decimal(text), seconds <= 3_600 else {
            throw usage("Invalid TRAVELTIMES_LOCK_TIMEOUT '\(text)': use seconds, such as 10 or 0.5.")
        }
        return seconds
    }

    /// The store, its configuration (read once) and zone, and the moment to act at: what every
    /// command that touches the store begins with. `.readsAsDefaults` is doctor's: it reports an
    /// unreadable `config.json` rather than stop at it.
    func commute(unreadableConfiguration: Commute.UnreadableConfiguration = .fails) throws -> Commute {
        var commute = try Commute.open(
            environment: environment, lockTimeout: try lockTimeout(), unreadableConfiguration: unreadableConfiguration, cap: try cap(),
            zone: { saved in try timeZone(saved: saved).zone }, now: { zone in try now(in: zone) })
        if let text = environment[.tickDeadline], !text.isEmpty {
            guard let seconds = NumberParsing.decimal(text), seconds > 0, seconds <= 3_600 else {
                throw usage("Invalid TRAVELTIMES_TICK_DEADLINE '\(DisplayText.line(String(text.prefix(20))))': use seconds, such as 45.")
            }
            commute.sendingTime = seconds
        }
        return commute
    }

    /// The notifiers, as this command sends through them: the stdout notifier prints on this
    /// command's stdout; programs get this environment without its secrets.
    /// With `--json`, stdout is the JSON's: the stdout notifier prints on stderr instead.
    func sender(_ io: TerminalIO) -> NotifierSender {
        let json = wantsJSON
        return NotifierSender(print: { json ? io.err($0) : io.out($0) }, helperPath: fetchHelperPath(), environment: childEnvironment)
    }

    var wantsJSON: Bool { isSet(Options.json) }

    /// The program run as `PROGRAM fetch-helper` for requests: `TRAVELTIMES_FETCH_HELPER`
    /// (tests), else this one.
    func fetchHelperPath() -> String {
        environment[.fetchHelper].flatMap { $0.isEmpty ? nil : $0 } ?? HelperHTTPClient.runningProgram()
    }

    /// Prints a value as JSON: stable key order, two-space indentation, for scripts and jq.
    /// `through` another stream (one that removes secrets) when given.
    func printJSON<T: Encodable>(_ value: T, through stream: TerminalIO? = nil) throws {
        (stream ?? io).out(String(decoding: try JSONCoding.encode(value, layout: .pretty), as: UTF8.self))
    }

    /// Warns on stderr when the cap deferred some requests and the deferred set is not the one
    /// already warned about: overflow is never silent, and never repeated to cron every minute.
    func report(_ summary: Commute.RescheduleSummary) {
        guard summary.overflowed, summary.deferredChanged else { return }
        io.warn(
            "\(summary.requested) alerts requested, \(summary.scheduled) scheduled, \(summary.deferred) deferred "
                + "(cap \(summary.cap)); deferred alerts are scheduled as earlier ones fire — see `traveltimes pending`")
    }

    /// Asks before destroying something. On a terminal the user answers; otherwise `--yes` is needed.
    /// Returns normally only when confirmed.
    func confirm(_ consequence: String, question: String) throws {
        if isSet(Options.yes) { return }
        guard io.isInteractive else {
            throw usage("\(consequence) Re-run with --yes to confirm.")
        }
        io.writeError("\(consequence)\n\(question) [y/N] ")
        let answer = io.readLine()?.trimmingWhitespace().lowercased()
        guard answer == "y" || answer == "yes" else { throw Declined() }
    }
}

/// The user answered no to a confirmation. Exit 1, nothing changed.
struct Declined: ProcessError {
    var exitCode: ExitCode { .failure }
    var explanation: String { "Cancelled; nothing was changed." }
}

/// A JSON output whose every stored property is written, an absent one as null: a script reads
/// the same keys whatever is missing (Swift's own encoding leaves a nil key out).
protocol EveryKeyEncodable: Encodable {}

extension EveryKeyEncodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PropertyKey.self)
        for case (let label?, let value as any Encodable) in Mirror(reflecting: self).children {
            // An Optional encodes its nil as null.
            try container.encode(value, forKey: PropertyKey(stringValue: label))
        }
    }
}

/// A property's name as a JSON key.
private struct PropertyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
