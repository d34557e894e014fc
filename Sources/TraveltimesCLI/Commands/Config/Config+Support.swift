import CommuteCore
import FoundationEssentials

extension Commands {
    static let configKeys = Setting.all.map(\.name)

    /// `America/Los_Angeles (saved)`, `Europe/London (from TRAVELTIMES_TZ; saved: America/Los_Angeles)`.
    static func describe(_ zone: IANAZone, _ source: Invocation.ZoneSource, saved: String?) -> String {
        switch source {
        case .saved: "\(zone.identifier) (saved)"
        case .override: "\(zone.identifier) (from TRAVELTIMES_TZ, for this command; saved: \(saved ?? "none"))"
        case .host: "\(zone.identifier) (not saved yet: this host's; saved with the first schedule)"
        }
    }

    /// Re-plans every alert in the zone now in force, and says so.
    static func replan(_ invocation: Invocation, message: String) throws {
        let commute = try invocation.commute()
        let summary = try commute.reschedule()
        invocation.io.out("\(message); \(summary.scheduled) alerts re-planned in \(commute.timeZone.identifier).")
        invocation.report(summary)
    }

    static func setting(_ name: String, _ invocation: Invocation) throws -> Setting {
        guard let setting = Setting(name: name) else { throw unknownKey(name, invocation) }
        return setting
    }

    static func unknownKey(_ key: String, _ invocation: Invocation) -> UsageError {
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
        var routeID: RouteID
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
    /// Whether each custom route is asked when its alerts need it (`plan-requests`).
    var planRequests: Bool
    /// Requests a day, per provider.
    var budgets: [String: Int]
    /// Data older than this in an alert's lead window, or refreshes failing this long, send a
    /// health alert; 0 when health alerts are off.
    var staleAfterMinutes: Int
    /// How long after it fires an alert is cleared from the channels that can clear.
    var alertLifetimeMinutes: Int
    /// How far a followed transit trip may move before its leave alert is updated; 0 when off.
    var followThresholdMinutes: Int
    /// The notifiers health alerts go to, by name; null for every one.
    var healthNotify: [String]?
    /// Days of travel times kept; 0 when none are recorded.
    var historyDays: Int
    /// Weeks typical times look back.
    var typicalWeeks: Int
    /// How public services can reach the user; null when not set.
    var contact: String?
    var transitousURL: String
    var geocoderURL: String
    var osrmURL: String
    var valhallaURL: String
    /// The keyed providers' addresses (`tomtom`, `here`, `google`), their own when not set.
    var providerURLs: [String: String]
    var freeFlowMargin: Double
    /// `km` or `mi`: the unit distances are shown in.
    var units: String

    init(_ configuration: Configuration, source: String?, codeFromEnvironment: Bool, units: DistanceUnit, environment: [String: String] = [:]) {
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
        let credentials = Credentials(environment: environment, configuration: configuration)
        for provider in RouteProvider.keyed {
            let from: String? = switch credentials.key(for: provider)?.origin {
            case nil: nil
            case .configuration: "config"
            case .environment: "environment"
            }
            keys[provider.rawValue] = .some(from == nil ? nil : "set")
            keysFrom[provider.rawValue] = .some(from)
        }
        providerKeys = keys
        providerKeysFrom = keysFrom
        leadMinutes = configuration.leadMinutes ?? Configuration.defaultLeadMinutes
        minIntervalMinutes = configuration.minIntervalMinutes ?? Configuration.defaultMinIntervalMinutes
        planRequests = configuration.planRequests != false
        budgets = Dictionary(uniqueKeysWithValues: RouteProvider.allCases.map { ($0.rawValue, configuration.budget(for: $0)) })
        staleAfterMinutes = configuration.staleAfterMinutes ?? Configuration.defaultStaleAfterMinutes
        alertLifetimeMinutes = configuration.alertLifetimeMinutes ?? Configuration.defaultAlertLifetimeMinutes
        followThresholdMinutes = configuration.followThreshold ?? 0
        healthNotify = configuration.healthNotify
        historyDays = configuration.historyRetentionDays
        typicalWeeks = configuration.typicalTimeWeeks
        contact = configuration.contact
        transitousURL = configuration.baseURL(for: .transitous) ?? RouteProvider.transitous.defaultBaseURL
        geocoderURL = configuration.geocoderURL ?? Geocoder.nominatim.defaultBaseURL
        osrmURL = configuration.baseURL(for: .osrm) ?? RouteProvider.osrm.defaultBaseURL
        valhallaURL = configuration.baseURL(for: .valhalla) ?? RouteProvider.valhalla.defaultBaseURL
        providerURLs = Dictionary(uniqueKeysWithValues: RouteProvider.keyed.map { ($0.rawValue, configuration.baseURL(for: $0) ?? $0.defaultBaseURL) })
        freeFlowMargin = configuration.freeFlowMarginInForce
        self.units = units.rawValue
    }
}
