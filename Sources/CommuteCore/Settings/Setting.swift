import Basics
import CommuteDelivery
import CommuteModel
import CommuteSources
import FoundationEssentials
@_spi(Store) import CommuteStore

/// One setting of `config.json` that `config set` changes and `config unset` clears: its name,
/// how a value is written and read, its limits, whether it is a secret, and what it changes.
/// `config set`, `config unset`, the completion, `config set --help`, the manual page and every
/// error about a value come from here; a new setting is a new case, and every switch says what it
/// does with it.
public enum Setting: Hashable, Sendable {
    case source
    case accessCode
    case timeZone
    case grace
    case quietHours
    case dailyCap
    case providerKey(RouteProvider)
    /// A provider's address in place of its own (a self-hosted engine, a proxy, a test server):
    /// `osrm-url`, `here-url`.
    case providerURL(RouteProvider)
    case lead
    case minInterval
    case planRequests
    case budget(RouteProvider)
    case staleAfter
    case alertLifetime
    case followThreshold
    case healthNotify
    case historyDays
    case typicalWeeks
    case contact
    case geocoderURL
    case freeFlowMargin
    case units

    /// Every setting, in the order `config set` lists them.
    public static let all: [Setting] =
        [.source, .accessCode, .timeZone, .grace, .quietHours, .dailyCap] + RouteProvider.keyed.map(Setting.providerKey)
        + [.lead, .minInterval, .planRequests] + RouteProvider.allCases.map(Setting.budget) + [.staleAfter, .alertLifetime, .followThreshold, .healthNotify, .historyDays, .typicalWeeks, .contact, .geocoderURL]
        + RouteProvider.allCases.map(Setting.providerURL) + [.freeFlowMargin, .units]

    /// The setting called `name`, as `config set` takes it.
    public init?(name: String) {
        guard let setting = Self.all.first(where: { $0.name == name }) else { return nil }
        self = setting
    }

    /// As `config set` takes it: `quiet-hours`, `tomtom-key`, `budget.here`.
    public var name: String {
        switch self {
        case .source: "source"
        case .accessCode: "access-code"
        case .timeZone: "timezone"
        case .grace: "grace"
        case .quietHours: "quiet-hours"
        case .dailyCap: "daily-cap"
        case .providerKey(let provider): provider.keySetting
        case .providerURL(let provider): "\(provider.rawValue)-url"
        case .lead: "lead"
        case .minInterval: "min-interval"
        case .planRequests: "plan-requests"
        case .budget(let provider): provider.budgetSetting
        case .staleAfter: "stale-after"
        case .alertLifetime: "alert-lifetime"
        case .followThreshold: "follow-threshold"
        case .healthNotify: "health-notify"
        case .historyDays: "history-days"
        case .typicalWeeks: "typical-weeks"
        case .contact: "contact"
        case .geocoderURL: "geocoder-url"
        case .freeFlowMargin: "free-flow-margin"
        case .units: "units"
        }
    }

    /// A secret is kept only in `config.json` (mode 0600), is never shown, not even in an error,
    /// and may be given as `-` to be read from standard input, out of argv and shell history.
    public var isSecret: Bool {
        switch self {
        case .accessCode, .providerKey: true
        case .source, .timeZone, .grace, .quietHours, .dailyCap, .lead, .minInterval, .planRequests, .budget, .staleAfter, .alertLifetime, .followThreshold, .healthNotify, .historyDays,
            .typicalWeeks, .contact, .geocoderURL, .providerURL, .freeFlowMargin, .units: false
        }
    }

    /// Whether changing it re-plans every alert: the zone the schedules live in.
    public var replansAlerts: Bool { self == .timeZone || self == .freeFlowMargin }

    /// What it is, for `config set --help` and the manual page.
    public var meaning: String {
        switch self {
        case .source: "where refresh reads the feed"
        case .accessCode: "WSDOT's access code (WSDOT_ACCESS_CODE wins over it)"
        case .timeZone: "the zone the schedules live in, whatever TZ cron has; re-plans every alert"
        case .grace: "how late an alert may still be delivered (default 10m)"
        case .quietHours: "scheduled alerts inside it are held back"
        case .dailyCap: "the most scheduled alerts a day (default \(Configuration.defaultStandardDailyCap))"
        case .providerKey(let provider): "\(provider.displayName)'s key (\(provider.keyVariable?.name ?? "its variable") wins over it)"
        case .lead: "how long before an alert its custom routes are in play (default \(Configuration.defaultLeadMinutes)m)"
        case .minInterval: "the least time between two requests for one route (default \(Configuration.defaultMinIntervalMinutes)m)"
        case .planRequests:
            "on (default): a custom route is asked when its alerts need it, about the moment you will leave; off: about now, every min-interval while in play"
        case .budget(let provider): "the requests \(provider.displayName) may be sent a day (default \(provider.defaultBudget))"
        case .staleAfter:
            "data this old, or refreshes failing this long, send a health alert (default \(Configuration.defaultStaleAfterMinutes)m)"
        case .alertLifetime:
            "how long a fixed-time alert stays before it is cleared where the channel can (default \(Configuration.defaultAlertLifetimeMinutes / 60)h)"
        case .followThreshold:
            "how far a followed transit trip may move (late, early) before its leave alert is updated (default \(Configuration.defaultFollowThresholdMinutes)m); off follows none"
        case .healthNotify: "the notifiers health alerts go to, by name (default: all)"
        case .historyDays: "how many days of measured travel times are kept (default \(Configuration.defaultHistoryDays)); off records none"
        case .typicalWeeks: "how many weeks back typical times look (default \(TypicalTime.defaultWeeks))"
        case .contact: "how the public services (Transitous, Nominatim) can reach you: named in every request's User-Agent"
        case .geocoderURL: "a Nominatim in place of https://nominatim.openstreetmap.org"
        case .providerURL(let provider):
            provider.software.map { "a self-hosted \($0) in place of \(provider.defaultBaseURL)" }
                ?? "another address in place of \(provider.defaultBaseURL) (a proxy, a test server)"
        case .freeFlowMargin: "what an arrive-by leave time multiplies a free-flow estimate by (default 1.25)"
        case .units: "how distances are shown (default: mi where the zone's country signs miles, else km)"
        }
    }

    /// How to write a value: what help and every error about a value say after "use".
    public var form: String {
        switch self {
        case .source: "a URL, such as the WSDOT feed's, or a file's full path"
        case .accessCode: "the code WSDOT gave you, one line"
        case .timeZone: "an IANA name such as America/Los_Angeles or Europe/London"
        case .grace: "a duration such as 10m, 90s or 1h (at most 24h)"
        case .quietHours: "START-END, such as 22:00-06:00 (times as --at takes them)"
        case .dailyCap: "a whole number from 1 to \(Configuration.largestDailyCap)"
        case .providerKey: "one word of at most \(Self.longestKey) characters"
        case .lead, .minInterval: "whole minutes such as 60m, 10m or 2h (at most 24h)"
        case .planRequests: "on or off"
        case .budget: "a whole number of requests a day, 0 to \(Configuration.largestBudget)"
        case .staleAfter: "whole minutes such as 60m or 2h (at most 7 days), or off"
        case .alertLifetime: "whole minutes such as 30m or 2h (at least 1m, at most 24h)"
        case .followThreshold: "whole minutes such as 5m or 10m (at least 1m, at most 2h), or off"
        case .healthNotify: "notifier names, comma-separated, such as phone,desk (see notify list)"
        case .historyDays: "a whole number of days from 7 to \(Configuration.longestHistoryDays), or off"
        case .typicalWeeks: "a whole number of weeks from 1 to \(Configuration.longestTypicalWeeks)"
        case .contact: "an e-mail address or an http(s) URL, such as me@example.org"
        case .geocoderURL, .providerURL: "an http(s) URL: a scheme, a host, perhaps a port and a path"
        case .freeFlowMargin: "a number from 1 to 3, such as 1.25"
        case .units: "km or mi"
        }
    }

    /// Whether its value is a URL (which may carry a user, a password or a token).
    public var takesURL: Bool {
        switch self {
        case .source, .geocoderURL, .providerURL: true
        default: false
        }
    }

    /// The longest provider key or access code taken.
    public static let longestKey = 512

    /// Reads `text` as a value of this setting: the change to save, or why not.
    public func parse(_ text: String) throws(SettingError) -> SettingChange {
        guard !text.trimmingWhitespace().isEmpty else { throw SettingError(setting: self, value: text, isEmpty: true) }
        let invalid = SettingError(setting: self, value: text)
        switch self {
        case .source:
            return SettingChange(self, "source set to \(FeedSource.display(text)).") { $0.source = text }
        case .accessCode:
            guard text.count <= Self.longestKey, DisplayText.line(text) == text else { throw invalid }
            return SettingChange(self, "access-code set (stored only in config.json, mode 0600).") { $0.accessCode = text }
        case .timeZone:
            guard let zone = IANAZone(identifier: text) else { throw invalid }
            return SettingChange(self, "timezone set to \(zone.identifier)") { $0.timeZone = zone.identifier }
        case .grace:
            guard let seconds = ScheduleParsing.duration(text), seconds <= DueOccurrences.largestGrace else { throw invalid }
            return SettingChange(self, "grace set to \(TimeFormatting.age(TimeInterval(seconds))).") { $0.graceSeconds = seconds }
        case .quietHours:
            guard let window = try? QuietHours(text) else { throw invalid }
            return SettingChange(self, "quiet hours set to \(window): scheduled alerts in it are held back.") { $0.quietHours = window }
        case .dailyCap:
            guard text.count <= 4, let cap = Int(text), (1...Configuration.largestDailyCap).contains(cap) else { throw invalid }
            return SettingChange(self, "daily cap set to \(cap) scheduled alerts a day.") { $0.standardDailyCap = cap }
        case .providerKey(let provider):
            guard text.count <= Self.longestKey, DisplayText.line(text) == text, !text.contains(" ") else { throw invalid }
            return SettingChange(self, "\(name) set (stored only in config.json, mode 0600).") {
                $0.providerKeys = ($0.providerKeys ?? [:]).merging([provider.rawValue: text]) { _, new in new }
            }
        case .lead, .minInterval:
            guard let minutes = Self.minutes(text, in: 0...Configuration.longestProviderInterval) else { throw invalid }
            let confirmation = "\(name) set to \(TimeFormatting.age(TimeInterval(minutes * 60)))."
            return self == .lead
                ? SettingChange(self, confirmation) { $0.leadMinutes = minutes }
                : SettingChange(self, confirmation) { $0.minIntervalMinutes = minutes }
        case .planRequests:
            switch text.lowercased() {
            case "on":
                return SettingChange(self, "plan-requests set to on: each custom route is asked when its alerts need it, about the moment you will leave.") {
                    $0.planRequests = nil
                }
            case "off":
                return SettingChange(self, "plan-requests set to off: custom routes in play are asked about now, every min-interval.") {
                    $0.planRequests = false
                }
            default: throw invalid
            }
        case .budget(let provider):
            guard text.count <= 7, text.allSatisfy(\.isASCIIDigit), let budget = Int(text), budget <= Configuration.largestBudget else {
                throw invalid
            }
            return SettingChange(self, "\(name) set to \(budget) requests a day.") {
                $0.budgets = ($0.budgets ?? [:]).merging([provider.rawValue: budget]) { _, new in new }
            }
        case .staleAfter:
            if text.lowercased() == "off" {
                return SettingChange(self, "stale-after set to off: no health alerts.") { $0.staleAfterMinutes = 0 }
            }
            guard let minutes = Self.minutes(text, in: 1...Configuration.longestStaleAfter) else { throw invalid }
            return SettingChange(
                self,
                "stale-after set to \(TimeFormatting.age(TimeInterval(minutes * 60))): tick sends a health alert when data is older, "
                    + "or refreshes fail that long."
            ) { $0.staleAfterMinutes = minutes }
        case .alertLifetime:
            guard let minutes = Self.minutes(text, in: 1...Configuration.longestProviderInterval) else { throw invalid }
            return SettingChange(
                self, "alert-lifetime set to \(TimeFormatting.age(TimeInterval(minutes * 60))): alerts are cleared that long after they fire."
            ) { $0.alertLifetimeMinutes = minutes }
        case .followThreshold:
            if text.lowercased() == "off" {
                return SettingChange(self, "follow-threshold set to off: no trip is followed after its leave alert.") { $0.followThresholdMinutes = 0 }
            }
            guard let minutes = Self.minutes(text, in: 1...Configuration.longestFollowThreshold) else { throw invalid }
            return SettingChange(
                self,
                "follow-threshold set to \(TimeFormatting.age(TimeInterval(minutes * 60))): a followed trip's leave alert is updated "
                    + "when it is cancelled, or moves that much."
            ) { $0.followThresholdMinutes = minutes }
        case .healthNotify:
            guard let names = ScheduleParsing.notifierNames(text) else { throw invalid }
            return SettingChange(self, "health-notify set to \(names.joined(separator: ", ")).") { $0.healthNotify = names }
        case .historyDays:
            if text.lowercased() == "off" {
                return SettingChange(self, "history-days set to off: no travel times are recorded; those kept stay.") { $0.historyDays = 0 }
            }
            guard text.count <= 4, text.allSatisfy(\.isASCIIDigit), let days = Int(text), (7...Configuration.longestHistoryDays).contains(days)
            else { throw invalid }
            return SettingChange(self, "history-days set to \(days): older travel times are dropped.") { $0.historyDays = days }
        case .typicalWeeks:
            guard text.count <= 2, text.allSatisfy(\.isASCIIDigit), let weeks = Int(text), (1...Configuration.longestTypicalWeeks).contains(weeks)
            else { throw invalid }
            return SettingChange(self, "typical-weeks set to \(weeks): typical times look back \(weeks) weeks.") { $0.typicalWeeks = weeks }
        case .contact:
            guard Product.isValidContact(text) else { throw invalid }
            return SettingChange(self, "contact set: requests to public services now say \(Product.userAgent(contact: text))") { $0.contact = text }
        case .geocoderURL:
            guard let base = RoutingAPI.baseURL(text) else { throw invalid }
            return SettingChange(self, "geocoder-url set to \(base).") { $0.geocoderURL = base }
        case .providerURL(let provider):
            guard let base = RoutingAPI.baseURL(text) else { throw invalid }
            return SettingChange(self, "\(name) set to \(base).") { $0.setBaseURL(base, for: provider) }
        case .freeFlowMargin:
            guard text.count <= 5, let margin = NumberParsing.decimal(text), (1...3).contains(margin) else { throw invalid }
            return SettingChange(self, "free-flow-margin set to \(TimeFormatting.factor(margin)): arrive-by leave times on free-flow estimates allow that much") {
                $0.freeFlowMargin = margin
            }
        case .units:
            guard let unit = DistanceUnit(rawValue: text.lowercased()) else { throw invalid }
            return SettingChange(self, "units set to \(unit.rawValue): distances are shown in \(unit == .km ? "kilometres" : "miles").") { $0.units = unit }
        }
    }

    /// Whole minutes within `range`, from a duration.
    private static func minutes(_ text: String, in range: ClosedRange<Int>) -> Int? {
        guard let seconds = ScheduleParsing.duration(text), seconds % 60 == 0, range.contains(seconds / 60) else { return nil }
        return seconds / 60
    }

    /// Back to its default: the value is taken out of `config.json`.
    public func clear(in configuration: inout Configuration) {
        switch self {
        case .source: configuration.source = nil
        case .accessCode: configuration.accessCode = nil
        case .timeZone: configuration.timeZone = nil
        case .grace: configuration.graceSeconds = nil
        case .quietHours: configuration.quietHours = nil
        case .dailyCap: configuration.standardDailyCap = nil
        case .providerKey(let provider):
            configuration.providerKeys?[provider.rawValue] = nil
            if configuration.providerKeys?.isEmpty == true { configuration.providerKeys = nil }
        case .lead: configuration.leadMinutes = nil
        case .minInterval: configuration.minIntervalMinutes = nil
        case .planRequests: configuration.planRequests = nil
        case .budget(let provider):
            configuration.budgets?[provider.rawValue] = nil
            if configuration.budgets?.isEmpty == true { configuration.budgets = nil }
        case .staleAfter: configuration.staleAfterMinutes = nil
        case .alertLifetime: configuration.alertLifetimeMinutes = nil
        case .followThreshold: configuration.followThresholdMinutes = nil
        case .healthNotify: configuration.healthNotify = nil
        case .historyDays: configuration.historyDays = nil
        case .typicalWeeks: configuration.typicalWeeks = nil
        case .contact: configuration.contact = nil
        case .geocoderURL: configuration.geocoderURL = nil
        case .providerURL(let provider): configuration.setBaseURL(nil, for: provider)
        case .freeFlowMargin: configuration.freeFlowMargin = nil
        case .units: configuration.units = nil
        }
    }
}

/// A value read for a setting, ready to save.
public struct SettingChange: Sendable {
    public let setting: Setting
    /// What `config set` says it did: `grace set to 10 min.`
    public let confirmation: String
    let apply: @Sendable (inout Configuration) -> Void

    init(_ setting: Setting, _ confirmation: String, apply: @escaping @Sendable (inout Configuration) -> Void) {
        self.setting = setting
        self.confirmation = confirmation
        self.apply = apply
    }
}

/// A value a setting does not take. Its description never repeats a secret.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var setting: Setting
    public var value: String
    public var isEmpty = false

    /// A URL setting's value as it may be shown: its credentials and query hidden; text that is
    /// no URL (a key pasted in the wrong place, perhaps) not at all.
    static func shownURL(_ value: String) -> String? {
        guard let colon = value.firstRange(of: "://") else { return nil }
        // Read as an http URL whatever its scheme, to find its parts.
        let shown = FeedSource.display("http" + value[colon.lowerBound...].replacing(" ", with: "%20"))
        return shown.hasPrefix("http://") ? String(value[..<colon.lowerBound]) + shown.dropFirst(4) : nil
    }

    public var description: String {
        if isEmpty { return "The value for \(setting.name) is empty; use `traveltimes config unset \(setting.name)` to clear it." }
        // A URL is shown without its user, password and query (a rejected one may hold them).
        let text = setting.takesURL ? Self.shownURL(value) : value
        let shown = setting.isSecret ? "" : text.map { " '\(DisplayText.line(String($0.prefix(200))))'" } ?? " (not shown: it is no URL, and may be a key)"
        if setting == .timeZone { return "Unknown time zone\(shown): use \(setting.form)." }
        return "Invalid \(setting.name)\(shown): use \(setting.form)."
    }
}
