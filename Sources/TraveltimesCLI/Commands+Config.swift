import CommuteCore
import FoundationEssentials

extension Commands {
    static let configKeys = Setting.all.map(\.name)

    static let configShow = Command(
        name: "config show",
        summary: "Show the configuration (secrets are never shown)",
        options: [Options.json]
    ) { invocation in
        let configuration = try invocation.commute().configuration
        let secrets = configuration.accessCode.map { [$0] } ?? []
        let source = configuration.source.map { FeedSource.redact(FeedSource.display($0), secrets: secrets) }
        let environmentCode = !(invocation.environment[.accessCode] ?? "").isEmpty
        let codeState = environmentCode ? "set (from WSDOT_ACCESS_CODE)" : configuration.accessCode == nil ? "not set" : "set"
        let (zone, zoneSource) = try invocation.timeZone(saved: configuration.timeZone)
        if invocation.wantsJSON {
            try invocation.printJSON(ConfigJSON(
                configuration, source: source, codeFromEnvironment: environmentCode, environment: invocation.environment))
            return
        }
        // Each name in a column as wide as the longest, then its value.
        let width = (Setting.all.map(\.name.count).max() ?? 0) + 2
        func line(_ name: String, _ value: String) {
            invocation.io.out((name + ":").padded(to: width) + value)
        }
        for setting in Setting.all { line(setting.name, shown(setting)) }
        line("notifiers", configuration.effectiveNotifiers.map(\.summary).joined(separator: "; "))

        /// The setting's value as it is in force: a secret only as set or not, and where from.
        func shown(_ setting: Setting) -> String {
            switch setting {
            case .source: source ?? "not set"
            case .accessCode: codeState
            case .timeZone: describe(zone, zoneSource, saved: configuration.timeZone)
            case .grace: TimeFormatting.age(TimeInterval(configuration.graceSeconds ?? Configuration.defaultGrace))
            case .quietHours: configuration.quietHours.map(\.description) ?? "none"
            case .dailyCap: "\(configuration.standardDailyCap ?? Configuration.defaultStandardDailyCap) scheduled alerts"
            case .providerKey(let provider): keyState(provider, configuration, invocation.environment)
            case .lead: "\(configuration.leadMinutes ?? Configuration.defaultLeadMinutes) min before an alert, custom routes are in play"
            case .minInterval: "\(configuration.minIntervalMinutes ?? Configuration.defaultMinIntervalMinutes) min between requests for a route"
            case .budget(let provider): "\(configuration.budget(for: provider)) requests a day"
            case .staleAfter: staleAfterLabel(configuration)
            case .alertLifetime:
                "\(TimeFormatting.age(TimeInterval(configuration.alertLifetime))) after it fires, an alert is cleared where the channel can"
            case .healthNotify: configuration.healthNotify.map { $0.joined(separator: ", ") } ?? "every notifier"
            case .historyDays:
                configuration.historyRetentionDays == 0
                    ? "off (no travel times are recorded)" : "\(configuration.historyRetentionDays) days of travel times are kept"
            case .typicalWeeks: "typical times look back \(configuration.typicalTimeWeeks) weeks"
            }
        }
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
    static func describe(_ zone: IANAZone, _ source: Invocation.ZoneSource, saved: String?) -> String {
        switch source {
        case .saved: "\(zone.identifier) (saved)"
        case .override: "\(zone.identifier) (from TRAVELTIMES_TZ, for this command; saved: \(saved ?? "none"))"
        case .host: "\(zone.identifier) (not saved yet: this host's; saved with the first schedule)"
        }
    }

    static let configSet = Command(
        name: "config set",
        summary: "Set source, access-code, timezone, grace, quiet-hours, daily-cap, provider keys, lead, min-interval, budgets, stale-after, alert-lifetime or health-notify",
        arguments: "KEY VALUE",
        positionals: 2...2,
        argumentValues: [.configKey],
        options: [Options.now],
        discussion: settingsHelp
    ) { invocation in
        let setting = try setting(invocation.arguments.positionals[0], invocation)
        var value = invocation.arguments.positionals[1]
        // A secret given as `-` is read from standard input: out of argv and shell history.
        if value == "-", setting.isSecret {
            guard let line = StandardInput.line(maximumBytes: 4_096) else {
                throw invocation.usage(
                    "No \(setting.name) on standard input (one line, at most 4 KiB): `printf '%s\\n' \"$KEY\" | traveltimes config set \(setting.name) -`.")
            }
            value = line
        }
        let change: SettingChange
        do {
            change = try setting.parse(value)
        } catch let error as SettingError {
            throw invocation.usage(error.description)
        }
        try invocation.commute().settings.change(change)
        if setting.replansAlerts {
            try replan(invocation, message: change.confirmation)
        } else {
            invocation.io.out(change.confirmation)
        }
    }

    /// `config set --help`'s discussion: every setting, what it is and how to write it.
    static var settingsHelp: String {
        let width = (Setting.all.map(\.name.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: width + 2)
        let lines = Setting.all.map { setting in
            "  " + setting.name.padded(to: width) + setting.meaning + "\n"
                + indent + "VALUE: " + setting.form + (setting.isSecret ? "; a secret" : "")
        }
        return """
            KEY is one of:
            \(lines.joined(separator: "\n"))
            A secret is kept only in config.json (mode 0600) and never shown; a VALUE of - reads it
            from standard input instead, so it stays out of the process list and the shell's
            history. TRAVELTIMES_TZ overrides the saved timezone for one command.
            """
    }

    static let configUnset = Command(
        name: "config unset",
        summary: "Clear a setting (back to its default): any key config set takes",
        arguments: "KEY",
        positionals: 1...1,
        argumentValues: [.configKey],
        options: [Options.now]
    ) { invocation in
        let setting = try setting(invocation.arguments.positionals[0], invocation)
        try invocation.commute().settings.clear(setting)
        if setting.replansAlerts {
            try replan(invocation, message: "timezone cleared (it is saved again with the next schedule)")
        } else {
            invocation.io.out("\(setting.name) cleared.")
        }
    }

    /// Re-plans every alert in the zone now in force, and says so.
    private static func replan(_ invocation: Invocation, message: String) throws {
        let commute = try invocation.commute()
        let summary = try commute.reschedule()
        invocation.io.out("\(message); \(summary.scheduled) alerts re-planned in \(commute.timeZone.identifier).")
        invocation.report(summary)
    }

    private static func setting(_ name: String, _ invocation: Invocation) throws -> Setting {
        guard let setting = Setting(name: name) else { throw unknownKey(name, invocation) }
        return setting
    }

    private static func unknownKey(_ key: String, _ invocation: Invocation) -> UsageError {
        var message = "Unknown setting '\(DisplayText.line(key))': use \(configKeys.joined(separator: ", "))."
        if let suggestion = Suggestions.closest(to: key, in: configKeys) { message += " Did you mean '\(suggestion)'?" }
        return invocation.usage(message)
    }
}

/// `config show --json`: every setting, a public contract. Secrets (the access code, a webhook's
/// URL path and its header values) are `"set"` or null, never their value.
struct ConfigJSON: EveryKeyEncodable {
    struct NotifierJSON: EveryKeyEncodable {
        var id: Int
        /// What `schedule add --notify` and the like call it.
        var name: String?
        /// stdout, exec, webhook, channel (a URL: ntfy://, tgram://…) or desktop.
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
        var overUsual: Bool
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
    /// How long after it fires an alert is cleared from the channels that can clear.
    var alertLifetimeMinutes: Int
    /// The notifiers health alerts go to, by name; null for every one.
    var healthNotify: [String]?
    /// Days of travel times kept; 0 when none are recorded.
    var historyDays: Int
    /// Weeks typical times look back.
    var typicalWeeks: Int

    init(_ configuration: Configuration, source: String?, codeFromEnvironment: Bool, environment: [String: String] = [:]) {
        self.source = source
        accessCode = configuration.accessCode == nil && !codeFromEnvironment ? nil : "set"
        accessCodeFrom = codeFromEnvironment ? "environment" : configuration.accessCode == nil ? nil : "config"
        timezone = configuration.timeZone
        graceSeconds = configuration.graceSeconds ?? Configuration.defaultGrace
        quietHours = configuration.quietHours.map { hours in
            // As `config set quiet-hours` takes it: 22:00-06:00.
            [hours.start, hours.end].map { String(cFormat: "%02d:%02d", $0.hour, $0.minute) }.joined(separator: "-")
        }
        dailyCap = configuration.standardDailyCap ?? Configuration.defaultStandardDailyCap
        notifiers = (configuration.notifiers ?? []).map { notifier in
            var json = NotifierJSON(id: notifier.id, name: notifier.name, kind: "stdout", summary: notifier.summary)
            switch notifier.kind {
            case .stdout: break
            case .desktop: json.kind = "desktop"
            case .channel(let url):
                json.kind = "channel"
                // The scheme alone: everything after it may be a credential.
                json.url = (url.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? "") + ":…"
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
        watches = (configuration.watches ?? []).map { WatchJSON(routeID: $0.routeID, overMinutes: $0.overMinutes, overUsual: $0.overUsual ?? false) }
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
        alertLifetimeMinutes = configuration.alertLifetimeMinutes ?? Configuration.defaultAlertLifetimeMinutes
        healthNotify = configuration.healthNotify
        historyDays = configuration.historyRetentionDays
        typicalWeeks = configuration.typicalTimeWeeks
    }
}
