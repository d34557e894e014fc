import CommuteCore
import Foundation

extension Commands {
    static let configKeys = ["source", "access-code", "timezone", "grace", "quiet-hours", "daily-cap"]
        + RouteProvider.allCases.map(\.keySetting) + ["lead", "min-interval"] + RouteProvider.allCases.map(\.budgetSetting)
        + ["stale-after"]

    static let configShow = Command(
        name: "config show",
        summary: "Show the configuration (secrets are never shown)",
        options: [Options.json]
    ) { invocation in
        let configuration = try invocation.store().configuration()
        let secrets = configuration.accessCode.map { [$0] } ?? []
        let source = configuration.source.map { FeedSource.redact(FeedSource.display($0), secrets: secrets) }
        let environmentCode = !(invocation.environment["WSDOT_ACCESS_CODE"] ?? "").isEmpty
        let codeState = environmentCode ? "set (from WSDOT_ACCESS_CODE)" : configuration.accessCode == nil ? "not set" : "set"
        let (zone, zoneSource) = try invocation.timeZone(saved: configuration.timeZone)
        if invocation.wantsJSON {
            try invocation.printJSON(ConfigJSON(
                configuration, source: source, codeFromEnvironment: environmentCode, environment: invocation.environment))
            return
        }
        invocation.io.out("source:       \(source ?? "not set")")
        invocation.io.out("access-code:  \(codeState)")
        invocation.io.out("timezone:     \(describe(zone, zoneSource, saved: configuration.timeZone))")
        invocation.io.out("grace:        \(TimeFormatting.age(TimeInterval(configuration.graceSeconds ?? Configuration.defaultGrace)))")
        invocation.io.out("notifiers:    \(configuration.effectiveNotifiers.map(\.summary).joined(separator: "; "))")
        invocation.io.out("quiet-hours:  \(configuration.quietHours.map(\.description) ?? "none")")
        invocation.io.out("daily-cap:    \(configuration.standardDailyCap ?? Configuration.defaultStandardDailyCap) scheduled alerts")
        for provider in RouteProvider.allCases {
            let label = (provider.keySetting + ":").padding(toLength: 14, withPad: " ", startingAt: 0)
            invocation.io.out(label + keyState(provider, configuration, invocation.environment))
        }
        invocation.io.out("lead:         \(configuration.leadMinutes ?? Configuration.defaultLeadMinutes) min before an alert, custom routes are in play")
        invocation.io.out("min-interval: \(configuration.minIntervalMinutes ?? Configuration.defaultMinIntervalMinutes) min between requests for a route")
        invocation.io.out("budgets:      " + RouteProvider.allCases.map { "\($0.rawValue) \(configuration.budget(for: $0))" }.joined(separator: ", ")
            + " requests a day")
        invocation.io.out("stale-after:  \(staleAfterLabel(configuration))")
    }

    /// `60 min: older data or failing refreshes send a health alert`, or `off`.
    static func staleAfterLabel(_ configuration: Configuration) -> String {
        let minutes = configuration.staleAfterMinutes ?? Configuration.defaultStaleAfterMinutes
        guard minutes > 0 else { return "off (no health alerts)" }
        return "\(TimeFormatting.age(TimeInterval(minutes * 60))): older data, or refreshes failing that long, send a health alert"
    }

    /// `set`, `set (from TOMTOM_API_KEY)` or `not set`: never the key.
    static func keyState(_ provider: RouteProvider, _ configuration: Configuration, _ environment: [String: String]) -> String {
        if !(environment[provider.keyVariable] ?? "").isEmpty { return "set (from \(provider.keyVariable))" }
        return configuration.key(for: provider) == nil ? "not set" : "set"
    }

    /// `America/Los_Angeles (saved)`, `Europe/London (from TRAVELTIMES_TZ; saved: America/Los_Angeles)`.
    static func describe(_ zone: TimeZone, _ source: Invocation.ZoneSource, saved: String?) -> String {
        switch source {
        case .saved: "\(zone.identifier) (saved)"
        case .override: "\(zone.identifier) (from TRAVELTIMES_TZ, for this command; saved: \(saved ?? "none"))"
        case .host: "\(zone.identifier) (not saved yet: this host's; saved with the first schedule)"
        }
    }

    static let configSet = Command(
        name: "config set",
        summary: "Set source, access-code, timezone, grace, quiet-hours, daily-cap, provider keys, lead, min-interval, budgets or stale-after",
        arguments: "KEY VALUE",
        positionals: 2...2,
        argumentValues: [.configKey],
        options: [Options.now],
        discussion: """
            timezone is the IANA zone the schedules live in (America/Los_Angeles); every command uses
            it, whatever TZ the host or cron has, and TRAVELTIMES_TZ overrides it for one command.
            Setting it re-plans every alert. grace is a duration (10m); quiet-hours a window
            (22:00-06:00); daily-cap a count (20).
            tomtom-key, here-key and google-key are the routing providers' keys: secrets, stored only in
            config.json (TOMTOM_API_KEY, HERE_API_KEY and GOOGLE_MAPS_API_KEY win over them). For a
            secret (these and access-code), a VALUE of - reads it from standard input instead, so it
            stays out of the process list and the shell's history. lead
            (60m) is how long before an alert its custom routes are in play; min-interval (10m) the
            least time between two requests for one route; budget.tomtom, budget.here and
            budget.google (2500, 1000, 160) the requests each provider may be sent a day.
            stale-after (60m; off) is how old the data of an alert due within lead may be, and how
            long refreshes may fail, before tick sends one health alert through the notifiers (and
            one when it mends); off sends none.
            """
    ) { invocation in
        let key = invocation.arguments.positionals[0]
        var value = invocation.arguments.positionals[1]
        guard configKeys.contains(key) else { throw unknownKey(key, invocation) }
        // A secret given as `-` is read from standard input: out of argv and shell history.
        if value == "-", key == "access-code" || key.hasSuffix("-key") {
            guard let line = StandardInput.line(maximumBytes: 4_096) else {
                throw invocation.usage("No \(key) on standard input (one line, at most 4 KiB): `printf '%s\\n' \"$KEY\" | traveltimes config set \(key) -`.")
            }
            value = line
        }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw invocation.usage("The value for \(key) is empty; use `traveltimes config unset \(key)` to clear it.")
        }
        let store = try invocation.store()
        switch key {
        case "timezone":
            guard let zone = TimeZone(identifier: value) else {
                throw invocation.usage("Unknown time zone '\(value)': use an IANA name such as America/Los_Angeles or Europe/London.")
            }
            try store.updateConfiguration { $0.timeZone = zone.identifier }
            try replan(invocation, store, message: "timezone set to \(zone.identifier)")
        case "quiet-hours":
            let window: QuietHours
            do {
                window = try QuietHours(value)
            } catch {
                throw invocation.usage("Invalid quiet-hours '\(value)': use START-END, such as 22:00-06:00 (times as --at takes them).")
            }
            try store.updateConfiguration { $0.quietHours = window }
            invocation.io.out("quiet hours set to \(window): scheduled alerts in it are held back.")
        case "daily-cap":
            guard value.count <= 4, let cap = Int(value), (1...Configuration.largestDailyCap).contains(cap) else {
                throw invocation.usage("Invalid daily-cap '\(value)': use a whole number from 1 to \(Configuration.largestDailyCap).")
            }
            try store.updateConfiguration { $0.standardDailyCap = cap }
            invocation.io.out("daily cap set to \(cap) scheduled alerts a day.")
        case "grace":
            guard let seconds = duration(value), seconds <= Configuration.largestGrace else {
                throw invocation.usage("Invalid grace '\(value)': use a duration such as 10m, 90s or 1h (at most 24h).")
            }
            try store.updateConfiguration { $0.graceSeconds = seconds }
            invocation.io.out("grace set to \(TimeFormatting.age(TimeInterval(seconds))).")
        case "source":
            try store.updateConfiguration { $0.source = value }
            invocation.io.out("source set to \(FeedSource.display(value)).")
        case "lead", "min-interval":
            guard let seconds = duration(value), seconds % 60 == 0, seconds / 60 <= Configuration.longestProviderInterval else {
                throw invocation.usage("Invalid \(key) '\(DisplayText.line(value))': use whole minutes such as 60m, 10m or 2h (at most 24h).")
            }
            try store.updateConfiguration { configuration in
                if key == "lead" { configuration.leadMinutes = seconds / 60 } else { configuration.minIntervalMinutes = seconds / 60 }
            }
            invocation.io.out("\(key) set to \(TimeFormatting.age(TimeInterval(seconds))).")
        case "stale-after":
            let minutes: Int
            if value.lowercased() == "off" {
                minutes = 0
            } else {
                guard let seconds = duration(value), seconds % 60 == 0, (1...Configuration.longestStaleAfter).contains(seconds / 60) else {
                    throw invocation.usage("Invalid stale-after '\(DisplayText.line(value))': use whole minutes such as 60m or 2h (at most 7 days), or off.")
                }
                minutes = seconds / 60
            }
            try store.updateConfiguration { $0.staleAfterMinutes = minutes }
            invocation.io.out(minutes == 0
                ? "stale-after set to off: no health alerts."
                : "stale-after set to \(TimeFormatting.age(TimeInterval(minutes * 60))): tick sends a health alert when data is older, or refreshes fail that long.")
        case let key where key.hasPrefix("budget."):
            guard let provider = RouteProvider(rawValue: String(key.dropFirst(7))), value.count <= 7, value.allSatisfy(\.isASCIIDigit),
                let budget = Int(value), budget <= Configuration.largestBudget
            else {
                throw invocation.usage("Invalid \(key) '\(DisplayText.line(value))': use a whole number of requests a day, 0 to \(Configuration.largestBudget).")
            }
            try store.updateConfiguration { $0.budgets = ($0.budgets ?? [:]).merging([provider.rawValue: budget]) { _, new in new } }
            invocation.io.out("\(key) set to \(budget) requests a day.")
        case let key where key.hasSuffix("-key"):
            guard let provider = RouteProvider.allCases.first(where: { $0.keySetting == key }) else { throw unknownKey(key, invocation) }
            guard value.count <= 512, DisplayText.line(value) == value, !value.contains(" ") else {
                throw invocation.usage("Invalid \(key): a key is one word of at most 512 characters.")
            }
            try store.updateConfiguration { $0.providerKeys = ($0.providerKeys ?? [:]).merging([provider.rawValue: value]) { _, new in new } }
            invocation.io.out("\(key) set (stored only in config.json, mode 0600).")
        default:
            try store.updateConfiguration { $0.accessCode = value }
            invocation.io.out("access-code set (stored only in config.json, mode 0600).")
        }
    }

    static let configUnset = Command(
        name: "config unset",
        summary: "Clear a setting (back to its default): any key config set takes",
        arguments: "KEY",
        positionals: 1...1,
        argumentValues: [.configKey],
        options: [Options.now]
    ) { invocation in
        let key = invocation.arguments.positionals[0]
        guard configKeys.contains(key) else { throw unknownKey(key, invocation) }
        let store = try invocation.store()
        try store.updateConfiguration { configuration in
            switch key {
            case "source": configuration.source = nil
            case "timezone": configuration.timeZone = nil
            case "grace": configuration.graceSeconds = nil
            case "quiet-hours": configuration.quietHours = nil
            case "daily-cap": configuration.standardDailyCap = nil
            case "lead": configuration.leadMinutes = nil
            case "min-interval": configuration.minIntervalMinutes = nil
            case "stale-after": configuration.staleAfterMinutes = nil
            case let key where key.hasPrefix("budget."): configuration.budgets?[String(key.dropFirst(7))] = nil
            case let key where key.hasSuffix("-key"): configuration.providerKeys?[String(key.dropLast(4))] = nil
            default: configuration.accessCode = nil
            }
            if configuration.budgets?.isEmpty == true { configuration.budgets = nil }
            if configuration.providerKeys?.isEmpty == true { configuration.providerKeys = nil }
        }
        if key == "timezone" {
            try replan(invocation, store, message: "timezone cleared (it is saved again with the next schedule)")
        } else {
            invocation.io.out("\(key) cleared.")
        }
    }

    /// Re-plans every alert in the zone now in force, and says so.
    private static func replan(_ invocation: Invocation, _ store: Store, message: String) throws {
        let commute = try invocation.commute()
        let summary = try commute.reschedule()
        invocation.io.out("\(message); \(summary.scheduled) alerts re-planned in \(commute.timeZone.identifier).")
        invocation.report(summary)
    }

    /// `10m`, `90s`, `1h`, or a bare number of minutes; in seconds. Nil for anything else, and for
    /// more digits than any duration needs (no input can overflow).
    static func duration(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Int)] = [("h", 3_600), ("min", 60), ("m", 60), ("s", 1), ("", 60)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            let digits = trimmed.dropLast(suffix.count)
            guard (1...9).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let number = Int(digits) else { continue }
            return number * scale
        }
        return nil
    }

    private static func unknownKey(_ key: String, _ invocation: Invocation) -> UsageError {
        var message = "Unknown setting '\(key)': use \(configKeys.joined(separator: ", "))."
        if let suggestion = Suggestions.closest(to: key, in: configKeys) { message += " Did you mean '\(suggestion)'?" }
        return invocation.usage(message)
    }
}

/// `config show --json`: every setting, a public contract. Secrets (the access code, a webhook's
/// URL path and its header values) are `"set"` or null, never their value.
struct ConfigJSON: EveryKeyEncodable {
    struct NotifierJSON: EveryKeyEncodable {
        var id: Int
        /// stdout, exec or webhook.
        var kind: String
        /// As `notify list` shows it.
        var summary: String
        var program: String?
        var arguments: [String]?
        /// Scheme and host only: the path is a secret.
        var url: String?
        var format: String?
        /// Header names, each `"set"`.
        var headers: [String: String]?
        var click: String?
    }

    struct WatchJSON: EveryKeyEncodable {
        var routeID: String
        var overMinutes: Int
    }

    var source: String?
    var accessCode: String?
    /// Where the access code a refresh would use comes from: `config` or `environment` (which wins).
    var accessCodeFrom: String?
    /// The saved zone; null until the first schedule saves one.
    var timezone: String?
    var graceSeconds: Int
    /// `HH:MM-HH:MM`, as `config set quiet-hours` takes it.
    var quietHours: String?
    var dailyCap: Int
    /// The configured notifiers; empty when alerts go to stdout by default.
    var notifiers: [NotifierJSON]
    var watches: [WatchJSON]
    /// Each provider's key: `"set"` or null, never the key.
    var providerKeys: [String: String?]
    /// Where each key a refresh would use comes from: `config`, `environment`, or null.
    var providerKeysFrom: [String: String?]
    var leadMinutes: Int
    var minIntervalMinutes: Int
    /// Requests a day, per provider.
    var budgets: [String: Int]
    /// Data older than this in an alert's lead window, or refreshes failing this long, send a
    /// health alert; 0 when health alerts are off.
    var staleAfterMinutes: Int

    init(_ configuration: Configuration, source: String?, codeFromEnvironment: Bool, environment: [String: String] = [:]) {
        self.source = source
        accessCode = configuration.accessCode == nil && !codeFromEnvironment ? nil : "set"
        accessCodeFrom = codeFromEnvironment ? "environment" : configuration.accessCode == nil ? nil : "config"
        timezone = configuration.timeZone
        graceSeconds = configuration.graceSeconds ?? Configuration.defaultGrace
        quietHours = configuration.quietHours.map { hours in
            // As `config set quiet-hours` takes it: 22:00-06:00.
            [hours.start, hours.end].map { String(format: "%02d:%02d", $0.hour, $0.minute) }.joined(separator: "-")
        }
        dailyCap = configuration.standardDailyCap ?? Configuration.defaultStandardDailyCap
        notifiers = (configuration.notifiers ?? []).map { notifier in
            var json = NotifierJSON(id: notifier.id, kind: "stdout", summary: notifier.summary)
            switch notifier.kind {
            case .stdout: break
            case .exec(let program, let arguments):
                json.kind = "exec"
                json.program = program
                json.arguments = arguments
            case .webhook(let url, let format, let headers, let click):
                json.kind = "webhook"
                json.url = WebhookNotifier.redact(url)
                json.format = format.rawValue
                json.headers = headers.map { lines in
                    Dictionary(lines.map { (String($0.split(separator: ":", maxSplits: 1).first ?? ""), "set") }, uniquingKeysWith: { first, _ in first })
                }
                json.click = click
            }
            return json
        }
        watches = (configuration.watches ?? []).map { WatchJSON(routeID: $0.routeID, overMinutes: $0.overMinutes) }
        var keys: [String: String?] = [:]
        var keysFrom: [String: String?] = [:]
        for provider in RouteProvider.allCases {
            let fromEnvironment = !(environment[provider.keyVariable] ?? "").isEmpty
            let from = fromEnvironment ? "environment" : configuration.key(for: provider) == nil ? nil : "config"
            keys[provider.rawValue] = .some(from == nil ? nil : "set")
            keysFrom[provider.rawValue] = .some(from)
        }
        providerKeys = keys
        providerKeysFrom = keysFrom
        leadMinutes = configuration.leadMinutes ?? Configuration.defaultLeadMinutes
        minIntervalMinutes = configuration.minIntervalMinutes ?? Configuration.defaultMinIntervalMinutes
        budgets = Dictionary(uniqueKeysWithValues: RouteProvider.allCases.map { ($0.rawValue, configuration.budget(for: $0)) })
        staleAfterMinutes = configuration.staleAfterMinutes ?? Configuration.defaultStaleAfterMinutes
    }
}
