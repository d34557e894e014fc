import Basics
@_spi(Store) import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials
@_spi(Store) import CommuteSources

/// The operations behind the commands: refresh, favorites, schedules and the pending triggers.
///
/// The one door into the domain: commands reach the store only through these operations. Holds
/// the store, the configuration as it was read once when the command began, and the moment it
/// acts at; every change that affects triggers re-plans them. Never prints: results come back as
/// values for the CLI to format.
public struct Commute: Sendable {
    /// Reached only through the operations: nothing outside the core reads or writes it.
    let store: Store
    /// `config.json` as this command read it, once, when it began.
    public let configuration: Configuration
    /// Why `configuration` is the defaults rather than the file: only when it was opened with
    /// `.readsAsDefaults` (doctor) and `config.json` could not be read.
    public let configurationError: StoreError?
    /// The instant the operation evaluates time at (the real clock, or `--now`).
    public let now: Date
    public let timeZone: IANAZone
    public let calendar: ZonedCalendar
    /// The unit every view shows a distance in (`config set units`, else the zone's country's).
    public var units: DistanceUnit { configuration.unitsInForce(zone: timeZone) }
    /// The most triggers that may be pending.
    public let cap: Int
    /// How late an alert may still be delivered (`config set grace`); past it, it is missed.
    public let grace: TimeInterval
    /// How long the command may spend sending alerts, from when it began (the real clock, never
    /// `--now`): what is left unsent then is recorded as failed and sent by the next tick. A tick
    /// that outlives a minute must not outlive its purpose.
    public var sendingTime: TimeInterval = Alerts.defaultTickDeadline
    /// When the command began, on the monotonic clock.
    let began = DispatchTime.now()
    /// Whether every export is sent once the run is done (a refresh): a re-plan then leaves the
    /// export files to it, rather than write them at each of its re-plans.
    var exportsFollow = false

    /// Whether the command's sending time is spent.
    var isOutOfSendingTime: Bool {
        Double(DispatchTime.now().uptimeNanoseconds &- began.uptimeNanoseconds) / 1e9 > sendingTime
    }

    /// A commute over `store` with `configuration` as read; `grace`, when given, overrides the
    /// configuration's.
    @_spi(Store) public init(
        store: Store, configuration: Configuration = .empty, now: Date, timeZone: IANAZone, cap: Int = FanOut.defaultCap,
        grace: TimeInterval? = nil
    ) {
        self.init(store: store, configuration: configuration, configurationError: nil, now: now, timeZone: timeZone, cap: cap, grace: grace)
    }

    private init(
        store: Store, configuration: Configuration, configurationError: StoreError?, now: Date, timeZone: IANAZone, cap: Int,
        grace: TimeInterval?
    ) {
        self.store = store
        self.configuration = configuration
        self.configurationError = configurationError
        self.now = now
        self.timeZone = timeZone
        self.calendar = ZonedCalendar(timeZone: timeZone, around: now)
        self.cap = cap
        self.grace = grace ?? TimeInterval(configuration.graceSeconds ?? Configuration.defaultGrace)
    }

    /// What `open` does when `config.json` cannot be read.
    public enum UnreadableConfiguration: Sendable {
        /// The command fails with the file's error: what every command but doctor does.
        case fails
        /// The defaults stand in, and `configurationError` says why: doctor, which reports it.
        case readsAsDefaults
    }

    /// Opens a commute over `store`, reading its configuration once. `zone` chooses the zone from
    /// the saved one (or nil), and `now` the moment to act at in that zone.
    @_spi(Store) public static func open(
        _ store: Store, unreadableConfiguration: UnreadableConfiguration = .fails, cap: Int,
        zone: (_ saved: String?) throws -> IANAZone, now: (IANAZone) throws -> Date
    ) throws -> Commute {
        let configuration: Configuration
        var configurationError: StoreError?
        do {
            configuration = try store.configuration()
        } catch {
            switch unreadableConfiguration {
            case .fails: throw error
            case .readsAsDefaults:
                configuration = .empty
                configurationError = error
            }
        }
        let timeZone = try zone(configuration.timeZone)
        return Commute(
            store: store, configuration: configuration, configurationError: configurationError, now: try now(timeZone),
            timeZone: timeZone, cap: cap, grace: nil)
    }

    /// Opens the store the environment names (`TRAVELTIMES_HOME`, else the XDG data directory),
    /// its locks waited for at most `lockTimeout` seconds, and a commute over it.
    public static func open(
        environment: [String: String], lockTimeout: TimeInterval = defaultLockTimeout, unreadableConfiguration: UnreadableConfiguration = .fails,
        cap: Int, zone: (_ saved: String?) throws -> IANAZone, now: (IANAZone) throws -> Date
    ) throws -> Commute {
        try open(
            Store(StoreDirectory(environment: environment), lockTimeout: lockTimeout), unreadableConfiguration: unreadableConfiguration, cap: cap,
            zone: zone, now: now)
    }

    /// How long a command waits for a store lock unless `TRAVELTIMES_LOCK_TIMEOUT` says.
    public static let defaultLockTimeout = Store.defaultLockTimeout

    /// The store directory the environment names, whether or not it exists yet.
    public static func storeDirectory(environment: [String: String]) throws(StoreError) -> String {
        try StoreDirectory(environment: environment).path
    }

    /// Where the store is.
    public var storeDirectory: String { store.directory }

    /// The local day it is.
    public var today: CivilDate { calendar.local(now).date }

    /// The ledger keeps what was decided after this (`DeliveryLedger.retention` ago): every read
    /// leaves older entries out and every write drops them.
    public var ledgerHorizon: Date { now.addingTimeInterval(-DeliveryLedger.retention) }

    /// What a reschedule did, for the overflow warning.
    public struct RescheduleSummary: Sendable, Equatable {
        public var requested: Int
        public var scheduled: Int
        public var deferred: Int
        public var cap: Int
        /// Whether the deferred requests are not the ones the previous plan deferred.
        public var deferredChanged: Bool

        public var overflowed: Bool { deferred > 0 }

        init(_ pending: (previous: PendingBook, new: PendingBook)) {
            requested = pending.new.requested
            scheduled = pending.new.requests.count
            deferred = pending.new.deferredCount
            cap = pending.new.cap
            // The plan lists the soonest few deferred requests, and a digest of them all.
            deferredChanged = pending.new.deferredDigest != pending.previous.deferredDigest
                || Set(pending.new.deferred.map(\.id)) != Set(pending.previous.deferred.map(\.id))
                    && (pending.new.deferredDigest == nil || pending.previous.deferredDigest == nil)
        }
    }

    /// Re-plans every trigger. `routes` are the routes a refresh just decoded, passed forward in
    /// memory; when nil (a schedule changed), the route cache is read under the pending lock.
    /// `feedIDs`, with `routes`, are all the IDs that refresh saved, of which it kept only those
    /// the schedules named when it began.
    @discardableResult
    public func reschedule(routes: [RouteID: Route]? = nil, feedIDs: Set<RouteID> = []) throws -> RescheduleSummary {
        let pending = try store.reschedule(ledgerSince: ledgerCutoff) { inputs in
            let book = inputs.schedules
            var routesByID = try routes ?? store.routes().byID
            // A schedule added while the feed was being read may name a saved route that was not
            // kept: then the cache just saved is read back, rather than show it without data.
            // (Read in place: a schedule is a large value, and there may be thousands.)
            if routes != nil, !feedIDs.isEmpty,
                book.schedules.indices.contains(where: { index in book.schedules[index].routeIDs.contains { routesByID[$0] == nil && feedIDs.contains($0) } })
            {
                routesByID = try store.routes().byID
            }
            return plan(inputs, routes: routesByID)
        }
        if !exportsFollow { exports.writeFiles() }
        return RescheduleSummary(pending)
    }

    /// A change to the schedules (what it removed, added or counted) and what re-planning after it
    /// did.
    public struct Replanned<Change: Sendable>: Sendable {
        public var change: Change
        public var summary: RescheduleSummary
    }

    /// Changes the schedules (and the favorites, with `favoritesAccess` exclusive) and re-plans,
    /// all or nothing: see `Store.changeSchedules`. An unreadable route cache, plan or schedules
    /// file fails it before anything is written.
    func changeSchedules<T>(
        favoritesAccess: FileLock.Mode = .shared, _ change: (inout Favorites, inout ScheduleBook) throws -> T
    ) throws -> Replanned<T> {
        let (result, previous, new) = try store.changeSchedules(favoritesAccess: favoritesAccess, ledgerSince: ledgerCutoff, change) { inputs in
            plan(inputs, routes: try store.routes().byID)
        }
        exports.writeFiles()
        return Replanned(change: result, summary: RescheduleSummary((previous, new)))
    }

    /// How far back a plan reads the ledger: what was decided since the previous plan, whose marks
    /// it carries forward (what was decided before it, that plan saw). Half an hour more, or the
    /// grace window when longer: a process that started before that plan may have written after it.
    func ledgerCutoff(_ previous: PendingBook) -> Date {
        min(previous.plannedAt ?? .distantPast, now).addingTimeInterval(-max(grace, 1_800))
    }

    /// The plan for the schedules, keeping what the previous plan and the ledger say about each
    /// request. The marks come from the previous plan and the ledger since it; where the window
    /// holds a request whose latest occurrence, past its grace, `tick` would still look up in the
    /// ledger — a mark lost, or a ledger written behind the plans — the ledger is read back a week
    /// and a day, once, and the marks made from it.
    private func plan(_ inputs: Store.PlanInputs, routes: [RouteID: Route]) -> PendingBook {
        let pending = plan(inputs, ledger: inputs.ledger, routes: routes)
        let lookback = ZonedCalendar(timeZone: timeZone, around: now, daysBefore: 9, daysAfter: 2)
        let unmarked = pending.requests.contains { entry in
            guard let at = Alerts.latestOccurrence(of: entry, atOrBefore: now, calendar: lookback) else { return false }
            return now.timeIntervalSince(at) > grace && at > (entry.handled ?? .distantPast)
                && at > (entry.since.map { Self.since($0, now: now) } ?? .distantPast)
                && !Alerts.isPaused(entry, at: at, pauses: pending.pauses, calendar: lookback)
        }
        guard unmarked, inputs.previous.plannedAt != nil else { return pending }
        // Only the window's requests are kept: a month of 10,000 schedules' decisions is never held.
        let window = Set(pending.requests.map(\.id))
        guard let week = try? store.ledgerTail(since: now.addingTimeInterval(-8 * 86_400), keeping: { window.contains($0.alert) }) else { return pending }
        var merged = inputs.ledger ?? DeliveryLedger()
        merged.entries = week.entries + merged.entries.filter { entry in !week.entries.contains { $0 == entry } }
        return plan(inputs, ledger: merged, routes: routes)
    }

    private func plan(_ inputs: Store.PlanInputs, ledger: DeliveryLedger?, routes: [RouteID: Route]) -> PendingBook {
        let book = inputs.schedules
        let previous = inputs.previous
        let known = KnownRequests(previous, schedules: inputs.previousSchedules)
        let (due, handled) = dueAndHandled(previous: previous, ledger: ledger, known: known)
        // What each arrive-by occurrence's last plan was on: kept while the occurrence is the same.
        let remembered = Dictionary(
            previous.requests.compactMap { entry in entry.memory.map { (entry.id, (arrival: entry.arrival, memory: $0)) } },
            uniquingKeysWith: { first, _ in first })
        let plan = FanOut.plan(
            schedules: calendars.withDepartures(book.schedules), routes: routes, now: now, calendar: calendar, cap: cap, due: due,
            pauses: Pauses((book.pauses ?? []) + calendars.skipPauses()), typical: history.typicalLookup,
            memory: { request in remembered[request.id].flatMap { $0.arrival == request.arrival ? $0.memory : nil } },
            freeFlowMargin: configuration.freeFlowMarginInForce, onTime: history.onTimeLookup, listing: PendingBook.listedDeferred)
        var pending = PendingBook(plan: plan, plannedAt: now, timeZone: timeZone.identifier, previous: previous, handled: handled, known: known)
        Self.backdate(&pending, previous: previous, schedules: book.schedules)
        let pauses = Schedules.activePauses(book, today: calendar.local(now).date) + calendars.skipPauses()
        pending.pauses = pauses.isEmpty ? nil : pauses
        return pending
    }

    /// A request new to the plan starts now (`since`): occurrences before it are not its business.
    /// But a schedule added after the previous plan was made, and planned only now, was added by a
    /// command that died before planning it: its requests start when it was added, so that an
    /// occurrence in between is sent (inside the grace window) or recorded as missed, never lost.
    static func backdate(_ pending: inout PendingBook, previous: PendingBook, schedules: [Schedule]) {
        guard let previousPlan = previous.plannedAt, let plannedAt = pending.plannedAt else { return }
        var added: [UUID: Date] = [:]
        for schedule in schedules where schedule.createdAt >= previousPlan && schedule.createdAt < plannedAt {
            added[schedule.id] = schedule.createdAt
        }
        guard !added.isEmpty else { return }
        let known = Set((previous.requests + previous.deferred).map(\.id))
        func backdate(_ entries: inout [PendingBook.Entry]) {
            for index in entries.indices where !known.contains(entries[index].id) {
                if let createdAt = added[entries[index].scheduleID] { entries[index].since = createdAt }
            }
        }
        backdate(&pending.requests)
        backdate(&pending.deferred)
    }

    /// When a request was first planned, as `tick` and the plan take it: a time ahead of now was
    /// read off a clock that was ahead and has gone back, and bars nothing (its occurrences fire,
    /// or are recorded as missed — never neither).
    static func since(_ since: Date, now: Date) -> Date { since > now ? .distantPast : since }

    /// What the ledger says for the plan: the occurrences inside the grace window it does not show
    /// as dealt with (the plan keeps them in place), and each request's latest occurrence it does
    /// (the plan marks it, so that `tick` need not read the ledger for it again). The ledger is
    /// read since a little before the previous plan (`ledgerCutoff`): the marks that plan made are
    /// carried forward, and what was decided since is added to them. An unreadable ledger shows
    /// nothing new as dealt with — due alerts stay planned, and `tick` reports the file.
    func dueAndHandled(previous: PendingBook, ledger: DeliveryLedger?, known: KnownRequests?) -> (DueOccurrences, handled: [AlertID: Date]) {
        var since: [AlertID: Date] = [:]
        var finished: [AlertID: Set<Date>] = [:]
        var handled: [AlertID: Date] = [:]
        for entry in previous.requests + previous.deferred {
            if let first = entry.since { since[entry.id] = Self.since(first, now: now) }
            if let mark = entry.handled {
                handled[entry.id] = max(mark, handled[entry.id] ?? mark)
                finished[entry.id, default: []].insert(mark)
            }
        }
        let histories = ledger?.historiesOfRecentOccurrences(since: now.addingTimeInterval(-8 * 86_400)) ?? [:]
        for (occurrence, history) in histories where DeliveryLedger.isFinished(history) {
            finished[occurrence.alert, default: []].insert(occurrence.at)
            if handled[occurrence.alert].map({ occurrence.at > $0 }) ?? true { handled[occurrence.alert] = occurrence.at }
        }
        var known = known
        if let held = known?.since { known?.since = Self.since(held, now: now) }
        return (DueOccurrences(grace: grace, since: since, finished: finished, known: known), handled)
    }

    /// Finds the schedule whose ID starts with `prefix` (any case); it must be unique.
    public func schedule(matching prefix: String) throws -> Schedule {
        try Self.find(prefix, in: store.schedules().schedules)
    }

    static func find(_ prefix: String, in schedules: [Schedule]) throws(CommuteError) -> Schedule {
        let needle = prefix.lowercased()
        guard !needle.isEmpty else { throw .unknownSchedule(prefix) }
        let matches = schedules.filter { $0.id.lowercasedString.hasPrefix(needle) }
        guard let match = matches.first else { throw .unknownSchedule(prefix) }
        guard matches.count == 1 else {
            throw .ambiguousSchedule(prefix, matches: matches.map(\.id.shortForm))
        }
        return match
    }
}
