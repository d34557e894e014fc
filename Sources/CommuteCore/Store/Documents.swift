import Foundation

/// `routes.json`: the route cache, the one source of truth for travel times.
public struct RouteCache: VersionedDocument, Equatable {
    public var version: Int
    /// When the routes were last saved by a successful refresh.
    public var fetchedAt: Date?
    /// Where they came from, with any secret removed.
    public var source: String?
    /// The conditional-request validators (ETag, Last-Modified) the server sent with these routes:
    /// kept with the content they describe, so that they are only ever sent back to the source
    /// that issued them, for the routes it sent.
    public var validators: FeedFetcher.Validators?
    public var routes: [Route]

    public init(fetchedAt: Date?, source: String?, validators: FeedFetcher.Validators? = nil, routes: [Route]) {
        self.version = Self.currentVersion
        self.fetchedAt = fetchedAt
        self.source = source
        self.validators = validators
        self.routes = routes
    }

    /// What precedes the routes in the file: enough to make a conditional request.
    public struct Header: Sendable, Equatable {
        public var fetchedAt: Date?
        public var source: String?
        public var validators: FeedFetcher.Validators?
    }

    public static var empty: RouteCache { RouteCache(fetchedAt: nil, source: nil, routes: []) }

    /// Routes by ID.
    public var byID: [String: Route] { Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
}

/// `favorites.json`: the user's favorite routes, as ordered IDs only, and their named groups.
public struct Favorites: VersionedDocument, Equatable {
    public var version: Int
    public var routeIDs: [String]
    /// Named sets of favorites ("morning", "home"), for `brief --group`. Every ID is a favorite.
    public var groups: [RouteGroup]

    public init(routeIDs: [String], groups: [RouteGroup] = []) {
        self.version = Self.currentVersion
        self.routeIDs = routeIDs
        self.groups = groups
    }

    public static var empty: Favorites { Favorites(routeIDs: []) }

    /// The group with this name, any case.
    public func group(named name: String) -> RouteGroup? {
        groups.first { $0.name.lowercased() == name.lowercased() }
    }

    private enum CodingKeys: String, CodingKey { case version, routeIDs, groups }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        routeIDs = try container.decode([String].self, forKey: .routeIDs)
        // Files written before groups existed have none.
        groups = try container.decodeIfPresent([RouteGroup].self, forKey: .groups) ?? []
    }
}

/// A named, ordered set of favorite routes.
public struct RouteGroup: Codable, Sendable, Equatable {
    public var name: String
    public var routeIDs: [String]

    /// Whether text can name a group: 1 to 40 characters, trimmed, without control characters.
    public static func isValidName(_ name: String) -> Bool {
        (1...40).contains(name.count) && name == name.trimmingCharacters(in: .whitespacesAndNewlines)
            && DisplayText.line(name) == name
    }

    public init(name: String, routeIDs: [String]) {
        self.name = name
        self.routeIDs = routeIDs
    }
}

/// `schedules.json`: the notification schedules.
public struct ScheduleBook: VersionedDocument, Equatable {
    public var version: Int
    public var schedules: [Schedule]
    /// Days off, for every schedule or one (`pause`); nil when there are none.
    public var pauses: [Pause]?

    public init(schedules: [Schedule]) {
        self.version = Self.currentVersion
        self.schedules = schedules
    }

    public static var empty: ScheduleBook { ScheduleBook(schedules: []) }
}

/// `pending.json`: the notification side — what is scheduled to fire, and what the cap deferred.
public struct PendingBook: VersionedDocument, Equatable {
    /// A scheduled trigger with its content, flat as it is written.
    public struct Entry: Codable, Sendable, Equatable {
        public var scheduleID: UUID
        public var weekday: Weekday
        public var hour: Int
        public var minute: Int
        public var nextFire: Date
        public var title: String?
        public var body: String?
        /// When this request was first planned: occurrences before it are none of `tick`'s business
        /// (a schedule added at 7:05 did not miss 7:00).
        public var since: Date?
        /// Its latest occurrence the ledger showed as dealt with when the plan was made: `tick`
        /// looks no further for it, and reads the ledger only for an occurrence after this. The
        /// ledger stays the authority; a missing or stale mark only means it is read.
        public var handled: Date?
        /// An arrive-by request's arrival (`nextFire` is then its leave time); nil for a fixed time.
        public var arrival: Date?
        /// True for an arrive-by heads-up (`nextFire` is then that long before the leave time);
        /// absent otherwise.
        public var headsUp: Bool?
        /// When the oldest data its content shows was measured: `pending` states the data's age as
        /// of the moment it would fire, however long after the plan that is.
        public var dataAsOf: Date?

        public var isHeadsUp: Bool { headsUp == true }

        public init(_ request: TriggerRequest, content: AlertContent?, since: Date? = nil) {
            scheduleID = request.scheduleID
            weekday = request.weekday
            hour = request.hour
            minute = request.minute
            nextFire = request.nextFire
            arrival = request.arrival
            headsUp = request.isHeadsUp ? true : nil
            title = content?.title
            body = content?.body
            dataAsOf = content?.dataAsOf
            self.since = since
        }

        /// An entry as read from the file, every field given.
        init(
            scheduleID: UUID, weekday: Weekday, hour: Int, minute: Int, nextFire: Date, title: String?, body: String?, since: Date?,
            handled: Date?, arrival: Date? = nil, isHeadsUp: Bool = false
        ) {
            self.handled = handled
            self.arrival = arrival
            headsUp = isHeadsUp ? true : nil
            self.scheduleID = scheduleID
            self.weekday = weekday
            self.hour = hour
            self.minute = minute
            self.nextFire = nextFire
            self.title = title
            self.body = body
            self.since = since
        }

        /// `schedule.<uuid>.weekday.<1-7>`, derived from the schedule and weekday: the file writes
        /// it for readers that want it, and this never trusts a copy.
        public var id: String { TriggerRequest.identifier(scheduleID: scheduleID, weekday: weekday) + (isHeadsUp ? TriggerRequest.headsUpSuffix : "") }

        public var request: TriggerRequest {
            TriggerRequest(
                scheduleID: scheduleID, weekday: weekday, hour: hour, minute: minute, nextFire: nextFire, arrival: arrival, isHeadsUp: isHeadsUp)
        }
    }

    public var version: Int
    /// When the plan was made, and in which zone.
    public var plannedAt: Date?
    public var timeZone: String?
    public var cap: Int
    public var requested: Int
    /// Scheduled, soonest first, each with its content.
    public var requests: [Entry]
    /// Over the cap, soonest first; their content is rendered when they roll into the window.
    public var deferred: [Entry]
    /// The pauses in force when the plan was made: what `pending` says is held back.
    public var pauses: [Pause]?
    /// Which `schedules.json` the plan was made from (`FileStamp`). A plan whose stamp is not the
    /// file's is older than the schedules — a command died between saving them and planning — and
    /// the next command that plans makes it again.
    public var schedulesStamp: String?

    /// A new plan; each request keeps the `since` it had in `previous`, or starts now, and is
    /// marked with the latest occurrence `handled` names for it.
    public init(plan: FanOutPlan, plannedAt: Date, timeZone: String, previous: PendingBook? = nil, handled: [String: Date] = [:]) {
        version = Self.currentVersion
        self.plannedAt = plannedAt
        self.timeZone = timeZone
        cap = plan.cap
        requested = plan.requested
        var firstPlanned: [String: Date] = [:]
        for entry in (previous?.requests ?? []) + (previous?.deferred ?? []) {
            if let since = entry.since { firstPlanned[entry.id] = since }
        }
        requests = plan.scheduled.map { alert in
            var entry = Entry(alert.request, content: alert.content, since: firstPlanned[alert.request.id] ?? plannedAt)
            entry.handled = handled[entry.id]
            return entry
        }
        deferred = plan.deferred.map { request in
            var entry = Entry(request, content: nil, since: firstPlanned[request.id] ?? plannedAt)
            entry.handled = handled[entry.id]
            return entry
        }
    }

    public init(cap: Int) {
        version = Self.currentVersion
        self.cap = cap
        requested = 0
        requests = []
        deferred = []
    }

    public static var empty: PendingBook { PendingBook(cap: FanOut.defaultCap) }
}

/// `config.json`: where `refresh` reads from, and the WSDOT access code. Mode 0600 like every
/// store file; the only file the access code is ever written to.
public struct Configuration: VersionedDocument, Equatable {
    public var version: Int
    /// A URL or a file path.
    public var source: String?
    public var accessCode: String?
    /// How late an alert may still be delivered, in seconds (default 10 minutes).
    public var graceSeconds: Int?
    /// Where alerts go; none configured means stdout.
    public var notifiers: [Notifier]?
    /// Standard alerts are held back in this local window: `22:00-06:00`.
    public var quietHours: QuietHours?
    /// The most standard alerts delivered per local day (default 20).
    public var standardDailyCap: Int?
    /// Routes watched for delays (critical alerts after each refresh).
    public var watches: [DelayWatch]?
    /// The IANA zone the schedules live in: every command uses it, whatever `TZ` the host or cron
    /// has (`TRAVELTIMES_TZ` overrides it for one command). Saved when the first schedule is added.
    public var timeZone: String?
    /// Routing providers' keys, by provider (`tomtom`, `here`, `google`): secrets, like the
    /// access code.
    public var providerKeys: [String: String]?
    /// Requests a day per provider, over the defaults (`config set budget.here 500`).
    public var budgets: [String: Int]?
    /// How far ahead an alert puts its custom routes in play, in minutes (default 60).
    public var leadMinutes: Int?
    /// The least time between two requests for the same custom route, in minutes (default 10).
    public var minIntervalMinutes: Int?
    /// How old the data an alert in its lead window may be, or how long refreshes may fail, before
    /// a health alert says so, in minutes (default 60; 0 turns health alerts off).
    public var staleAfterMinutes: Int?

    public static let defaultLeadMinutes = 60
    public static let defaultMinIntervalMinutes = 10
    public static let defaultStaleAfterMinutes = 60
    /// The longest stale-after: a week, in minutes.
    public static let longestStaleAfter = 10_080
    /// The longest lead and minimum interval: a day, in minutes.
    public static let longestProviderInterval = 1_440
    /// The largest daily budget that may be configured.
    public static let largestBudget = 1_000_000

    /// The key for a provider saved with `config set`, if any.
    public func key(for provider: RouteProvider) -> String? { providerKeys?[provider.rawValue] }

    /// The requests a day a provider may be sent.
    public func budget(for provider: RouteProvider) -> Int { budgets?[provider.rawValue] ?? provider.defaultBudget }

    public static let defaultStandardDailyCap = 20
    /// The largest daily cap that may be configured.
    public static let largestDailyCap = 1_000
    /// The longest grace window: a day, in seconds.
    public static let largestGrace = 86_400
    /// The most critical (delay watch) alerts per local day.
    public static let criticalDailyCap = 3

    public static let defaultGrace = 600

    public init(source: String? = nil, accessCode: String? = nil) {
        version = Self.currentVersion
        self.source = source
        self.accessCode = accessCode
    }

    /// The configured notifiers, or stdout alone.
    public var effectiveNotifiers: [Notifier] {
        guard let notifiers, !notifiers.isEmpty else { return [Notifier(id: 0, kind: .stdout)] }
        return notifiers
    }

    public static var empty: Configuration { Configuration() }
}

/// `refresh.json`: what the last refresh attempts did, for `status`, the staleness line of
/// `routes`, and conditional requests. Kept apart from `routes.json` so that a failed refresh can
/// be recorded while the cache stays byte-for-byte as it was.
public struct RefreshLog: VersionedDocument, Equatable {
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
        var requests = providerRequests?.day == day ? providerRequests ?? ProviderRequests(day: day) : ProviderRequests(day: day)
        requests.counts[provider.rawValue] = used + granted
        providerRequests = requests
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
        var requests = providerRequests?.day == day ? providerRequests ?? ProviderRequests(day: day) : ProviderRequests(day: day)
        guard requests.reported?.contains(provider.rawValue) != true else { return false }
        requests.reported = (requests.reported ?? []) + [provider.rawValue]
        providerRequests = requests
        return true
    }

    /// Requests sent to a provider on `day` (a local date, `2026-11-23`).
    public func requests(to provider: RouteProvider, on day: String) -> Int {
        guard let providerRequests, providerRequests.day == day else { return 0 }
        return providerRequests.counts[provider.rawValue] ?? 0
    }

    /// Counts one more request to a provider on `day` when the budget allows it; false when it
    /// does not (and nothing is counted).
    public mutating func reserveRequest(to provider: RouteProvider, on day: String, budget: Int) -> Bool {
        let used = requests(to: provider, on: day)
        guard used < budget else { return false }
        if providerRequests?.day != day { providerRequests = ProviderRequests(day: day) }
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

/// One place alerts are sent.
public struct Notifier: Codable, Sendable, Equatable {
    public enum Kind: Codable, Sendable, Equatable {
        /// Print the alert: cron mails a job's output to its owner.
        case stdout
        /// Run a program with arguments (no shell); `{title}`, `{body}`, `{urgency}` and `{id}` in
        /// the arguments are replaced, and the same values are in the environment.
        case exec(program: String, arguments: [String])
        /// POST to a URL: `ntfy` (text body and Title/Priority/Tags headers), `slack`
        /// (`{"text"}`), `discord` (`{"content"}`), or `json` (the whole alert). `headers` are
        /// sent with it (`Authorization: Bearer …` for a protected ntfy topic): secrets, never
        /// shown. `click` is the URL ntfy opens when the alert is tapped.
        case webhook(url: String, format: WebhookNotifier.Format, headers: [String]? = nil, click: String? = nil)
    }

    /// Stable across removals of others: `notify remove 2` means the same notifier tomorrow.
    public var id: Int
    /// The largest notifier number.
    public static let largestID = 1_000_000
    public var kind: Kind

    public init(id: Int, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// `stdout`, `exec notify-send -u {urgency} {title} {body}`: one line, whatever was typed.
    public var summary: String {
        switch kind {
        case .stdout: "stdout"
        case .exec(let program, let arguments): DisplayText.line((["exec", program] + arguments).joined(separator: " "))
        case .webhook(let url, let format, let headers, let click):
            // Header values and the URL's path are secrets: the header names and the host are shown.
            "webhook \(WebhookNotifier.redact(url)) (" + ([format.rawValue]
                + (headers ?? []).map { "header " + ($0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "") }
                + (click == nil ? [] : ["click"])).joined(separator: ", ") + ")"
        }
    }
}

/// `delivered.json`: every decision `tick` made about an alert occurrence, newest last. Belongs to
/// the notification side and is written under the pending lock.
public struct DeliveryLedger: VersionedDocument, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        public enum Outcome: String, Codable, Sendable {
            /// A tick has taken it and is delivering it now.
            case claimed
            case delivered
            /// Too late: past the grace window (the machine was asleep).
            case missed
            /// A notifier failed; retried on later ticks while the grace window lasts.
            case failed
            /// Decided against: a smart alert whose routes were not delayed enough.
            case suppressed
        }

        /// The request identifier and the occurrence, plus the notifier: one entry per notifier.
        public var requestID: String
        public var occurrence: Date
        /// Nil for decisions about the occurrence as a whole (missed).
        public var notifier: Int?
        public var outcome: Outcome
        public var at: Date
        public var attempts: Int
        public var reason: String?

        public init(requestID: String, occurrence: Date, notifier: Int?, outcome: Outcome, at: Date, attempts: Int = 0, reason: String? = nil) {
            self.requestID = requestID
            self.occurrence = occurrence
            self.notifier = notifier
            self.outcome = outcome
            self.at = at
            self.attempts = attempts
            self.reason = reason
        }

        public func isFor(_ requestID: String, _ occurrence: Date, notifier: Int?) -> Bool {
            self.requestID == requestID && self.occurrence == occurrence && self.notifier == notifier
        }
    }

    public var version: Int
    public var entries: [Entry]

    public init(entries: [Entry] = []) {
        version = Self.currentVersion
        self.entries = entries
    }

    public static var empty: DeliveryLedger { DeliveryLedger() }

    /// Entries kept: 30 days.
    public static let retention: TimeInterval = 30 * 86_400
}

/// A daily window of local wall-clock time, which may wrap past midnight (`22:00-06:00`).
public struct QuietHours: Codable, Sendable, Equatable, CustomStringConvertible {
    public var start: TimeOfDay
    public var end: TimeOfDay

    public init(start: TimeOfDay, end: TimeOfDay) {
        self.start = start
        self.end = end
    }

    /// Reads `22:00-06:00` (each side as `schedule add --at` reads times).
    public init(_ text: String) throws(ModelError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .badTime(text) }
        start = try ScheduleParsing.time(String(parts[0]))
        end = try ScheduleParsing.time(String(parts[1]))
        guard start != end else { throw .badTime(text) }
    }

    /// Whether a wall-clock time is inside: from `start` up to, not including, `end`.
    public func contains(_ time: TimeOfDay) -> Bool {
        start < end ? (start <= time && time < end) : (time >= start || time < end)
    }

    public var description: String { "\(start.label)–\(end.label)" }

    private enum CodingKeys: String, CodingKey { case start, end }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(Int.self, forKey: .start)
        let end = try container.decode(Int.self, forKey: .end)
        guard (0..<1_440).contains(start), (0..<1_440).contains(end), start != end else {
            throw DecodingError.dataCorruptedError(
                forKey: .start, in: container, debugDescription: "a quiet-hours window is two different minutes of the day, 0–1439")
        }
        self.start = TimeOfDay(hour: start / 60, minute: start % 60)
        self.end = TimeOfDay(hour: end / 60, minute: end % 60)
    }

    /// Minutes after midnight.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start.hour * 60 + start.minute, forKey: .start)
        try container.encode(end.hour * 60 + end.minute, forKey: .end)
    }
}

/// A route watched for delays: one critical alert when its delay reaches `overMinutes`, one when
/// it clears.
public struct DelayWatch: Codable, Sendable, Equatable {
    public var routeID: String
    public var overMinutes: Int
    /// Whether the route was over the threshold at the last refresh; nil before the first look.
    public var isOver: Bool?

    public init(routeID: String, overMinutes: Int, isOver: Bool? = nil) {
        self.routeID = routeID
        self.overMinutes = overMinutes
        self.isOver = isOver
    }
}
