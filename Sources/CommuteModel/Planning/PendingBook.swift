import FoundationEssentials

/// `pending.json`: the notification side — what is scheduled to fire, and what the cap deferred.
public struct PendingBook: Codable, Sendable, Equatable {
    /// The version of its file this build reads and writes.
    public static let currentVersion = 1

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
        /// An arrive-by request on a transit route: the bus it is planned on, and the one that bus
        /// replaced — what the alert says moved the plan.
        public var memory: TransitMemory?
        /// True for a calendar event's request: `arrival` is its only occurrence. Absent otherwise.
        public var once: Bool?

        public var isHeadsUp: Bool { headsUp == true }
        public var isOnce: Bool { once == true }

        public init(_ request: TriggerRequest, content: AlertContent?, since: Date? = nil) {
            scheduleID = request.scheduleID
            weekday = request.weekday
            hour = request.hour
            minute = request.minute
            nextFire = request.nextFire
            arrival = request.arrival
            headsUp = request.isHeadsUp ? true : nil
            once = request.isOnce ? true : nil
            title = content?.title
            body = content?.body
            dataAsOf = content?.dataAsOf
            self.since = since
        }

        /// An entry as read from the file, every field given.
        package init(
            scheduleID: UUID, weekday: Weekday, hour: Int, minute: Int, nextFire: Date, title: String?, body: String?, since: Date?,
            handled: Date?, arrival: Date? = nil, isHeadsUp: Bool = false, isOnce: Bool = false
        ) {
            self.handled = handled
            once = isOnce ? true : nil
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
        public var id: AlertID { .schedule(scheduleID, weekday, headsUp: isHeadsUp) }

        public var request: TriggerRequest {
            TriggerRequest(
                scheduleID: scheduleID, weekday: weekday, hour: hour, minute: minute, nextFire: nextFire, arrival: arrival, isHeadsUp: isHeadsUp,
                isOnce: isOnce)
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
    /// Which requests the cap deferred, every one, as a digest (`FanOutPlan.deferredDigest`): the
    /// plan lists the soonest few only, and an overflow warning is new when this is.
    public var deferredDigest: String?

    /// How many deferred requests a plan lists, soonest first: what `pending` shows without
    /// working out the rest from the schedules.
    public static let listedDeferred = 64

    /// How many requests the cap deferred, listed or not.
    public var deferredCount: Int {
        // `requested` is from a file: never trusted to be arithmetic-safe.
        let (count, overflow) = requested.subtractingReportingOverflow(requests.count)
        return overflow ? deferred.count : max(deferred.count, count)
    }

    /// Whether every deferred request is listed.
    public var listsEveryDeferred: Bool { deferredCount == deferred.count }

    /// A new plan; each request keeps the `since` it had in `previous` (listed, or held unlisted:
    /// `known`), or starts now, and is marked with the latest occurrence `handled` names for it.
    /// The deferred requests beyond the soonest `listedDeferred` are counted, not kept.
    public init(
        plan: FanOutPlan, plannedAt: Date, timeZone: String, previous: PendingBook? = nil, handled: [AlertID: Date] = [:],
        known: KnownRequests? = nil
    ) {
        version = Self.currentVersion
        self.plannedAt = plannedAt
        self.timeZone = timeZone
        cap = plan.cap
        requested = plan.requested
        var firstPlanned: [AlertID: Date] = [:]
        for entry in (previous?.requests ?? []) + (previous?.deferred ?? []) {
            // A plan made while the clock was ahead is no later than this one.
            if let since = entry.since { firstPlanned[entry.id] = min(since, plannedAt) }
        }
        func since(_ id: AlertID) -> Date {
            if let first = firstPlanned[id] { return first }
            if let known, known.contains(id) { return min(known.since, plannedAt) }
            return plannedAt
        }
        requests = plan.scheduled.map { alert in
            var entry = Entry(alert.request, content: alert.content, since: since(alert.request.id))
            entry.handled = handled[entry.id]
            entry.memory = alert.memory
            return entry
        }
        deferredDigest = plan.deferredDigest
        deferred = plan.deferred.prefix(Self.listedDeferred).map { request in
            var entry = Entry(request, content: nil, since: since(request.id))
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
