/// Every environment variable the program reads, and what it means: the code reads them through
/// this type (`environment[.timeZone]`), and `--help` and the man page list them from it.
public enum EnvironmentVariable: String, CaseIterable, Sendable, CustomStringConvertible {
    case home = "TRAVELTIMES_HOME"
    case timeZone = "TRAVELTIMES_TZ"
    case hostTimeZone = "TZ"
    case source = "TRAVELTIMES_SOURCE"
    case accessCode = "WSDOT_ACCESS_CODE"
    case now = "TRAVELTIMES_NOW"
    case cap = "TRAVELTIMES_CAP"
    case lockTimeout = "TRAVELTIMES_LOCK_TIMEOUT"
    case tickDeadline = "TRAVELTIMES_TICK_DEADLINE"
    case fetchHelper = "TRAVELTIMES_FETCH_HELPER"
    case configHome = "XDG_CONFIG_HOME"
    case dataHome = "XDG_DATA_HOME"
    case userHome = "HOME"
    case tomtomKey = "TOMTOM_API_KEY"
    case hereKey = "HERE_API_KEY"
    case googleKey = "GOOGLE_MAPS_API_KEY"
    case tomtomURL = "TRAVELTIMES_TOMTOM_URL"
    case hereURL = "TRAVELTIMES_HERE_URL"
    case googleURL = "TRAVELTIMES_GOOGLE_URL"
    case transitousURL = "TRAVELTIMES_TRANSITOUS_URL"
    case nominatimURL = "TRAVELTIMES_NOMINATIM_URL"
    case osrmURL = "TRAVELTIMES_OSRM_URL"
    case valhallaURL = "TRAVELTIMES_VALHALLA_URL"
    case pushoverURL = "TRAVELTIMES_PUSHOVER_URL"
    case telegramURL = "TRAVELTIMES_TELEGRAM_URL"
    case discordURL = "TRAVELTIMES_DISCORD_URL"
    case slackURL = "TRAVELTIMES_SLACK_URL"
    case noColor = "NO_COLOR"
    case terminal = "TERM"
    case path = "PATH"
    case desktopBus = "DBUS_SESSION_BUS_ADDRESS"
    case zoneDirectory = "TZDIR"

    /// The variable's name.
    public var name: String { rawValue }

    public var description: String { rawValue }

    /// What it does, in one line.
    public var meaning: String {
        switch self {
        case .home: "Store directory (else $XDG_DATA_HOME/traveltimes, else ~/.local/share/traveltimes)"
        case .timeZone: "The schedules' zone for this command, over the saved one (config set timezone)"
        case .hostTimeZone: "Used only before a zone is saved: the first schedule saves it"
        case .source: "Feed for refresh when --source is not given (else `config set source`)"
        case .accessCode: "WSDOT access code (else `config set access-code`); never printed"
        case .now: "Act as if it were this ISO 8601 time, as --now does, for every command (a script's or a test's fixed clock); --now wins"
        case .cap: "Most alerts pending at once (default 64)"
        case .lockTimeout: "Seconds to wait for a store lock (default 10)"
        case .tickDeadline: "Seconds a command may spend sending alerts (default 45); the rest are recorded failed and sent by the next tick"
        case .fetchHelper: "Program run as PROGRAM fetch-helper for network requests (default: traveltimes itself)"
        case .configHome: "Units of install systemd go to $XDG_CONFIG_HOME/systemd/user (else ~/.config/systemd/user)"
        case .dataHome: "The default store is $XDG_DATA_HOME/traveltimes when TRAVELTIMES_HOME is unset"
        case .userHome: "Base of the default store and unit directory when the XDG variables are unset"
        case .tomtomKey: "TomTom key (else `config set tomtom-key`); never printed"
        case .hereKey: "HERE key (else `config set here-key`); never printed"
        case .googleKey: "Google Routes API key (else `config set google-key`); never printed"
        case .tomtomURL: "Replaces https://api.tomtom.com (a proxy, a test server; else `config set tomtom-url`)"
        case .hereURL: "Replaces https://router.hereapi.com (else `config set here-url`)"
        case .googleURL: "Replaces https://routes.googleapis.com (else `config set google-url`)"
        case .transitousURL: "Replaces https://api.transitous.org (else `config set transitous-url`: a self-hosted MOTIS, a test server)"
        case .nominatimURL: "Replaces https://nominatim.openstreetmap.org (else `config set geocoder-url`)"
        case .osrmURL: "Replaces https://router.project-osrm.org (else `config set osrm-url`)"
        case .valhallaURL: "Replaces https://valhalla1.openstreetmap.de (else `config set valhalla-url`)"
        case .pushoverURL: "Replaces https://api.pushover.net for pover:// notifiers"
        case .telegramURL: "Replaces https://api.telegram.org for tgram:// notifiers"
        case .discordURL: "Replaces https://discord.com for discord:// notifiers"
        case .slackURL: "Replaces https://hooks.slack.com for slack:// notifiers"
        case .noColor: "When set and not empty, no colour, even on a terminal (history is the only command with any)"
        case .terminal: "dumb: no colour"
        case .path: "Where exec notifiers, notify-send, sendmail, crontab and systemctl are found"
        case .desktopBus: "The desktop session's bus, which desktop notifications need (doctor checks the timers have it)"
        case .zoneDirectory: "The tz database (default /usr/share/zoneinfo)"
        }
    }

    /// Whether its value is a secret: never printed, never passed to a program the product runs.
    /// `TRAVELTIMES_SOURCE` is one: its URL may carry a user, a password or a token.
    public var isSecret: Bool {
        switch self {
        case .accessCode, .source, .tomtomKey, .hereKey, .googleKey: true
        default: false
        }
    }

    /// An environment for a child process (exec notifiers, the fetch helper): `environment`
    /// without the secrets.
    public static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { EnvironmentVariable(rawValue: $0.key)?.isSecret != true }
    }
}

extension Dictionary where Key == String, Value == String {
    /// The variable's value.
    public subscript(variable: EnvironmentVariable) -> String? {
        get { self[variable.rawValue] }
        set { self[variable.rawValue] = newValue }
    }

    /// The variable's value, when it is set and not empty.
    public func nonEmpty(_ variable: EnvironmentVariable) -> String? {
        guard let value = self[variable.rawValue], !value.isEmpty else { return nil }
        return value
    }
}
