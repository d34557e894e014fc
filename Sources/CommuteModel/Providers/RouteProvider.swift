import Basics
import FoundationEssentials

/// A routing service that times a route from any point to any other: a keyed one with live
/// traffic (for a fee per request above a free allowance), an open engine with free-flow times,
/// or a public-transport planner. Each is one file in this folder — its `Descriptor` and its
/// `RoutingService` — and one line in `descriptor` below; everything else asks the descriptor.
public enum RouteProvider: String, CaseIterable, Codable, Sendable, Comparable {
    case tomtom, here, google
    /// Door-to-door public transport from Transitous (MOTIS): keyless.
    case transitous
    /// Open routing engines on public instances: keyless, free-flow times (no traffic).
    case osrm, valhalla

    /// The registry: each provider's descriptor, from its own file. The order is the order every
    /// list (settings, help, doctor, the README's table) shows them in.
    public var descriptor: Descriptor {
        switch self {
        case .tomtom: .tomtom
        case .here: .here
        case .google: .google
        case .transitous: .transitous
        case .osrm: .osrm
        case .valhalla: .valhalla
        }
    }

    /// What kind of time a provider gives.
    public enum Mode: Sendable, Equatable {
        /// A car's time with the traffic now, with a key.
        case liveTraffic
        /// A car's time from the engine's speeds: no traffic of any kind.
        case freeFlow
        /// Itineraries of public transport.
        case transit
    }

    /// Everything a provider is, said once, in its file.
    public struct Descriptor: Sendable {
        public var displayName: String
        public var mode: Mode
        /// The variable that gives the key over `config.json` (a secret); nil for a keyless service.
        public var keyVariable: EnvironmentVariable?
        public var defaultBaseURL: String
        /// The variable that replaces the scheme and host (a proxy; a loopback server in tests).
        public var baseURLVariable: EnvironmentVariable
        /// Requests a day when none is configured: within each free allowance, or as a public
        /// service asks.
        public var defaultBudget: Int
        /// The most requests a minute a keyless service is sent (its policy).
        public var requestsPerMinute: Int
        /// How history stores who measured a reading (a byte per reading, `ReadingSource`): never
        /// renumber one. 0 and 4 are the feed's and the transit feeds'.
        public var historyCode: UInt8
        /// Whether its "usual" time is the time without traffic (Google's `staticDuration`).
        public var usualIsFreeFlow = false
        /// The software a keyless service runs, which one may host oneself; nil for a keyed one.
        public var software: String?
        /// What it is asked and what its answer gives, as `route add --help` says it beside its
        /// name: lines of at most 80 characters.
        public var asked: [String]
        /// The request for two points and the reading of an answer.
        public var service: any RoutingService

        /// A keyed provider: `NAME_API_KEY` (or `keyName`) and `TRAVELTIMES_NAME_URL`.
        static func keyed(
            _ name: String, displayName: String, keyName: String? = nil, url: String, budget: Int, historyCode: UInt8,
            usualIsFreeFlow: Bool = false, keyLabel: String? = nil, urlNote: String? = nil, asked: [String], service: any RoutingService
        ) -> Descriptor {
            let key = EnvironmentVariable(
                keyName ?? "\(name.uppercased())_API_KEY", meaning: "\(keyLabel ?? displayName) key (else `config set \(name)-key`); never printed",
                isSecret: true)
            return Descriptor(
                displayName: displayName, mode: .liveTraffic, keyVariable: key, defaultBaseURL: url,
                baseURLVariable: baseURLVariable(name, url: url, note: urlNote ?? " (else `config set \(name)-url`)"),
                defaultBudget: budget, requestsPerMinute: 60, historyCode: historyCode, usualIsFreeFlow: usualIsFreeFlow, asked: asked,
                service: service)
        }

        /// A keyless public service, which one may host oneself.
        static func keyless(
            _ name: String, displayName: String, mode: Mode, url: String, budget: Int, perMinute: Int, historyCode: UInt8, software: String,
            urlNote: String? = nil, asked: [String], service: any RoutingService
        ) -> Descriptor {
            Descriptor(
                displayName: displayName, mode: mode, keyVariable: nil, defaultBaseURL: url,
                baseURLVariable: baseURLVariable(name, url: url, note: urlNote ?? " (else `config set \(name)-url`)"),
                defaultBudget: budget, requestsPerMinute: perMinute, historyCode: historyCode, software: software, asked: asked,
                service: service)
        }

        private static func baseURLVariable(_ name: String, url: String, note: String) -> EnvironmentVariable {
            EnvironmentVariable("TRAVELTIMES_\(name.uppercased())_URL", meaning: "Replaces \(url)" + note)
        }
    }

    public var displayName: String { descriptor.displayName }
    /// An open engine's time: free-flow, from its profile's speeds, with no traffic of any kind.
    public var isFreeFlow: Bool { descriptor.mode == .freeFlow }
    /// Whether its routes are public transport (itineraries) rather than a car's time.
    public var isTransit: Bool { descriptor.mode == .transit }
    /// Whether it predicts traffic for a planned departure (`departAt`, `departureTime`).
    public var predictsTraffic: Bool { descriptor.mode == .liveTraffic }
    /// Whether it needs a key: the public, keyless services do not.
    public var needsKey: Bool { descriptor.keyVariable != nil }
    public var requestsPerMinute: Int { descriptor.requestsPerMinute }
    public var keyVariable: EnvironmentVariable? { descriptor.keyVariable }
    public var baseURLVariable: EnvironmentVariable { descriptor.baseURLVariable }
    public var defaultBaseURL: String { descriptor.defaultBaseURL }
    public var defaultBudget: Int { descriptor.defaultBudget }
    public var usualIsFreeFlow: Bool { descriptor.usualIsFreeFlow }
    public var software: String? { descriptor.software }
    /// The service that asks this provider and reads its answers.
    public var service: any RoutingService { descriptor.service }
    /// Its variables: the key's (if any), then the base URL's.
    public var variables: [EnvironmentVariable] { [keyVariable, baseURLVariable].compactMap(\.self) }

    /// The car providers, those `--provider` names with a key: in the order messages list them.
    public static var keyed: [RouteProvider] { allCases.filter(\.needsKey) }
    /// The open engines, whose times are free-flow estimates.
    public static var freeFlow: [RouteProvider] { allCases.filter(\.isFreeFlow) }
    /// The public-transport planners.
    public static var transit: [RouteProvider] { allCases.filter(\.isTransit) }

    /// `tomtom, here or google`: names as a sentence lists them.
    public static func spoken(_ providers: [RouteProvider], _ conjunction: String = "or") -> String {
        providers.map(\.rawValue).spoken(conjunction)
    }

    /// `config set tomtom-key KEY`.
    public var keySetting: String { "\(rawValue)-key" }
    /// `config set budget.tomtom N`.
    public var budgetSetting: String { "budget.\(rawValue)" }

    public static func < (lhs: RouteProvider, rhs: RouteProvider) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

extension EnvironmentVariable {
    /// Every secret the product knows of: its own (the access code, the feed's URL) and each
    /// provider's key. None reaches a child process.
    public static var secrets: [EnvironmentVariable] {
        program.filter(\.isSecret) + RouteProvider.allCases.compactMap(\.keyVariable)
    }
}

extension ChildEnvironment {
    /// `environment` without any of the product's secrets.
    public init(_ environment: [String: String]) { self.init(environment, without: EnvironmentVariable.secrets) }
}
