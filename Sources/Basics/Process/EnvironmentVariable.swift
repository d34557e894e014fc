/// An environment variable the program reads, and what it means: the code reads them through this
/// type (`environment[.timeZone]`). The variables of the program as a whole are declared here;
/// each routing provider, notification service and place search declares its own in its file, and
/// the core gathers them all (`EnvironmentVariable.documented`) for `--help` and the man page.
public struct EnvironmentVariable: Hashable, Sendable, CustomStringConvertible {
    /// The variable's name.
    public let name: String
    /// What it does, in one line.
    public let meaning: String
    /// Whether its value is a secret: never printed, never passed to a program the product runs.
    public let isSecret: Bool

    public init(_ name: String, meaning: String, isSecret: Bool = false) {
        self.name = name
        self.meaning = meaning
        self.isSecret = isSecret
    }

    public var description: String { name }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension EnvironmentVariable {
    public static let home = Self("TRAVELTIMES_HOME", meaning: "Store directory (else $XDG_DATA_HOME/traveltimes, else ~/.local/share/traveltimes)")
    public static let timeZone = Self("TRAVELTIMES_TZ", meaning: "The schedules' zone for this command, over the saved one (config set timezone)")
    public static let hostTimeZone = Self("TZ", meaning: "Used only before a zone is saved: the first schedule saves it")
    /// A secret: the feed's URL may carry a user, a password or a token.
    public static let source = Self(
        "TRAVELTIMES_SOURCE", meaning: "Feed for refresh when --source is not given (else `config set source`)", isSecret: true)
    public static let accessCode = Self(
        "WSDOT_ACCESS_CODE", meaning: "WSDOT access code (else `config set access-code`); never printed", isSecret: true)
    public static let now = Self(
        "TRAVELTIMES_NOW",
        meaning: "Act as if it were this ISO 8601 time, as --now does, for every command (a script's or a test's fixed clock); --now wins")
    public static let cap = Self("TRAVELTIMES_CAP", meaning: "Most alerts pending at once (default 64)")
    public static let lockTimeout = Self("TRAVELTIMES_LOCK_TIMEOUT", meaning: "Seconds to wait for a store lock (default 10)")
    public static let tickDeadline = Self(
        "TRAVELTIMES_TICK_DEADLINE",
        meaning: "Seconds a command may spend sending alerts (default 45); the rest are recorded failed and sent by the next tick")
    public static let fetchHelper = Self(
        "TRAVELTIMES_FETCH_HELPER", meaning: "Program run as PROGRAM fetch-helper for network requests (default: traveltimes itself)")
    public static let configHome = Self(
        "XDG_CONFIG_HOME", meaning: "Units of install systemd go to $XDG_CONFIG_HOME/systemd/user (else ~/.config/systemd/user)")
    public static let dataHome = Self("XDG_DATA_HOME", meaning: "The default store is $XDG_DATA_HOME/traveltimes when TRAVELTIMES_HOME is unset")
    public static let userHome = Self("HOME", meaning: "Base of the default store and unit directory when the XDG variables are unset")
    public static let noColor = Self(
        "NO_COLOR", meaning: "When set and not empty, no colour, even on a terminal (history is the only command with any)")
    public static let terminal = Self("TERM", meaning: "dumb: no colour")
    public static let path = Self("PATH", meaning: "Where exec notifiers, notify-send, sendmail, crontab and systemctl are found")
    public static let desktopBus = Self(
        "DBUS_SESSION_BUS_ADDRESS", meaning: "The desktop session's bus, which desktop notifications need (doctor checks the timers have it)")
    public static let zoneDirectory = Self("TZDIR", meaning: "The tz database (default /usr/share/zoneinfo)")

    /// The program's own variables, before those of the services (`documented` puts these first).
    public static let program: [EnvironmentVariable] = [
        .home, .timeZone, .hostTimeZone, .source, .accessCode, .now, .cap, .lockTimeout, .tickDeadline, .fetchHelper, .configHome,
        .dataHome, .userHome,
    ]
    /// The program's variables that describe the terminal and the system, after the services'.
    public static let system: [EnvironmentVariable] = [.noColor, .terminal, .path, .desktopBus, .zoneDirectory]
}

/// The environment a child process (an exec notifier, the fetch helper, `crontab`) runs with: the
/// caller's, without the product's secrets. Only made by naming the secrets to leave out, so no
/// child can be started with an environment nobody filtered.
public struct ChildEnvironment: Sendable, Equatable {
    public private(set) var variables: [String: String]

    public init(_ environment: [String: String], without secrets: [EnvironmentVariable]) {
        let names = Set(secrets.filter(\.isSecret).map(\.name))
        variables = environment.filter { !names.contains($0.key) }
    }

    /// An empty environment (a test's, a program that needs none).
    public static let empty = ChildEnvironment([:], without: [])

    public subscript(variable: EnvironmentVariable) -> String? { variables[variable.name] }
}

extension Dictionary where Key == String, Value == String {
    /// The variable's value.
    public subscript(variable: EnvironmentVariable) -> String? {
        get { self[variable.name] }
        set { self[variable.name] = newValue }
    }

    /// The variable's value, when it is set and not empty.
    public func nonEmpty(_ variable: EnvironmentVariable) -> String? {
        guard let value = self[variable.name], !value.isEmpty else { return nil }
        return value
    }
}
