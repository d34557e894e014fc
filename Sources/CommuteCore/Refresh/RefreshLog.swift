import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `refresh.json`: what the last refresh attempts did, for `status`, the staleness line of
/// `routes`, and conditional requests. Kept apart from `routes.json` so that a failed refresh can
/// be recorded while the cache stays byte-for-byte as it was.
public struct RefreshLog: StoreDocument, Equatable {
    public static let fileName = "refresh.json"
    public static let domain = StoreDomain.routes

    public var version: Int
    public var lastAttemptAt: Date?
    /// `ok`, `not modified`, or the failure's message (with secrets removed).
    public var lastResult: String?
    public var lastSuccessAt: Date?
    /// Failed attempts since the last success.
    public var failuresSinceSuccess: Int
    /// When the current run of failures began.
    public var failingSince: Date?
    /// What the last successful refresh warned about (stable keys): a quiet refresh repeats only
    /// what changed.
    public var warnings: [String]?
    /// Requests sent to each routing provider on one local day: the budget's count, shared by
    /// every process (it is written under the routes lock before each request is sent).
    public var providerRequests: ProviderRequests?
    /// The days before, newest first, at most `keptDays`: what `status` and `doctor` count a
    /// week's requests per alert and a month's projection on.
    public var earlierRequests: [ProviderRequests]?
    /// How many earlier days of request counts are kept: a month and a week.
    public static let keptDays = 38
    /// What would mend the last failure (`set the access code with …`), when it is known; nil
    /// after a success.
    public var lastFix: String?
    /// Routing providers whose requests all failed in the latest refresh that asked them, by
    /// provider: since when, and why. A provider leaves it when it answers again.
    public var failingProviders: [String: ProviderFailure]?

    /// A routing provider failing since `since`.
    public struct ProviderFailure: Codable, Sendable, Equatable {
        public var since: Date
        /// The failure, with its fix (`HERE rejected the key …: set a valid one with …`).
        public var reason: String

        public init(since: Date, reason: String) {
            self.since = since
            self.reason = reason
        }
    }

    /// Requests per provider on one local day (`2026-11-23`).
    public struct ProviderRequests: Codable, Sendable, Equatable {
        public var day: String
        public var counts: [String: Int]
        /// Providers whose spent budget was reported that day: a quiet refresh says it once.
        public var reported: [String]?

        public init(day: String, counts: [String: Int] = [:]) {
            self.day = day
            self.counts = counts
        }

        private enum CodingKeys: String, CodingKey { case day, counts, reported }

        /// Each count must be a whole number: `1.5` is named, not reported as JSON that is not.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            day = try container.decode(String.self, forKey: .day)
            reported = try container.decodeIfPresent([String].self, forKey: .reported)
            var counts: [String: Int] = [:]
            for (name, value) in try container.decode([String: Double].self, forKey: .counts) {
                guard value.isFinite, value == value.rounded(), let whole = Int(exactly: value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .counts, in: container,
                        debugDescription: "\(DisplayText.line(String(name.prefix(40)))) is \(value), not a whole number of requests")
                }
                counts[name] = whole
            }
            self.counts = counts
        }
    }

    /// Counts up to `count` requests to a provider on `day`, as many as the budget allows; how many.
    public mutating func reserveRequests(_ count: Int, to provider: RouteProvider, on day: String, budget: Int) -> Int {
        let used = requests(to: provider, on: day)
        let granted = max(0, min(count, budget - used))
        guard granted > 0 else { return 0 }
        roll(to: day)
        providerRequests?.counts[provider.rawValue] = used + granted
        return granted
    }

    /// Gives back requests counted and never sent.
    public mutating func releaseRequests(_ count: Int, to provider: RouteProvider, on day: String) {
        guard count > 0, var requests = providerRequests, requests.day == day else { return }
        requests.counts[provider.rawValue] = max(0, (requests.counts[provider.rawValue] ?? 0) - count)
        providerRequests = requests
    }

    /// Marks a provider's spent budget as reported on `day`; whether it was news.
    public mutating func reportBudgetSpent(_ provider: RouteProvider, on day: String) -> Bool {
        roll(to: day)
        guard providerRequests?.reported?.contains(provider.rawValue) != true else { return false }
        let reported = providerRequests?.reported ?? []
        providerRequests?.reported = reported + [provider.rawValue]
        return true
    }

    /// Requests sent to a provider on `day` (a local date, `2026-11-23`): today's count, or a
    /// kept earlier day's.
    public func requests(to provider: RouteProvider, on day: String) -> Int {
        guard let counts = providerRequests?.day == day ? providerRequests : earlierRequests?.first(where: { $0.day == day }) else { return 0 }
        return counts.counts[provider.rawValue] ?? 0
    }

    /// Starts `day`'s count when it is a new day, keeping the day before among the earlier ones.
    private mutating func roll(to day: String) {
        guard providerRequests?.day != day else { return }
        if let finished = providerRequests, finished.day < day, !finished.counts.isEmpty {
            earlierRequests = Array(([finished] + (earlierRequests ?? []).filter { $0.day != finished.day }).prefix(Self.keptDays))
        }
        providerRequests = ProviderRequests(day: day)
    }

    /// Counts one more request to a provider on `day` when the budget allows it; false when it
    /// does not (and nothing is counted).
    public mutating func reserveRequest(to provider: RouteProvider, on day: String, budget: Int) -> Bool {
        let used = requests(to: provider, on: day)
        guard used < budget else { return false }
        roll(to: day)
        providerRequests?.counts[provider.rawValue] = used + 1
        return true
    }

    public init() {
        version = Self.currentVersion
        failuresSinceSuccess = 0
    }

    public static var empty: RefreshLog { RefreshLog() }

    public mutating func recordSuccess(at date: Date, result: String) {
        lastAttemptAt = date
        lastResult = result
        lastSuccessAt = date
        failuresSinceSuccess = 0
        failingSince = nil
        lastFix = nil
    }

    public mutating func recordFailure(at date: Date, reason: String, fix: String? = nil) {
        lastAttemptAt = date
        lastResult = reason
        lastFix = fix
        if failuresSinceSuccess == 0 { failingSince = date }
        // Counted for a message, never past what a file may hold.
        failuresSinceSuccess = min(failuresSinceSuccess, Int(Int32.max) - 1) + 1
    }
}
