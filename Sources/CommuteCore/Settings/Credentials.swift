import Basics
import CommuteModel
import FoundationEssentials

/// Where each secret comes from, decided here and nowhere else: the environment's value wins over
/// `config.json`'s for the command that sees it; timers and cron see only the file.
public struct Credentials: Sendable {
    /// Where a secret was found.
    public enum Origin: Sendable, Equatable {
        /// In this command's environment: timers and cron do not see it.
        case environment(EnvironmentVariable)
        /// In `config.json`, where every command finds it.
        case configuration
    }

    /// A secret and where it came from.
    public struct Credential: Sendable, Equatable {
        public var value: String
        public var origin: Origin

        /// Whether only this shell has it (timers and cron will not).
        public var isOnlyInShell: Bool {
            if case .environment = origin { return true }
            return false
        }
    }

    private let environment: [String: String]
    private let configuration: Configuration

    public init(environment: [String: String], configuration: Configuration) {
        self.environment = environment
        self.configuration = configuration
    }

    /// WSDOT's access code.
    public var accessCode: Credential? { credential(.accessCode, saved: configuration.accessCode) }

    /// A routing provider's key.
    public func key(for provider: RouteProvider) -> Credential? {
        provider.keyVariable.flatMap { credential($0, saved: configuration.key(for: provider)) }
    }

    /// Whether the environment sets `variable` (a value the file may lack, or may also have).
    public func isInEnvironment(_ variable: EnvironmentVariable) -> Bool { environment.nonEmpty(variable) != nil }

    /// Every secret known, for removing from what is printed.
    public var all: [String] {
        ([accessCode] + RouteProvider.allCases.map { key(for: $0) }).compactMap { $0?.value }
    }

    private func credential(_ variable: EnvironmentVariable, saved: String?) -> Credential? {
        if let value = environment.nonEmpty(variable) { return Credential(value: value, origin: .environment(variable)) }
        return saved.map { Credential(value: $0, origin: .configuration) }
    }
}
