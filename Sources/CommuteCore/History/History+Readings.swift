import Basics
@_spi(Store) import CommuteHistory
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
@_spi(Store) import CommuteSources
#endif

extension History {
    /// The fastest a road can be driven, in km/h: a reading that implies more is not a travel time.
    public static let fastestSpeed = 130.0
    /// Walking pace, in km/h: a drive that takes longer than walking its whole length is not a
    /// travel time either.
    public static let walkingSpeed = 5.0
    /// A reading over this many times what is usual (its slot's 90th percentile in the history,
    /// else the source's own usual time) is not a travel time either.
    public static let absurdFactor = 4

    /// Weeks typical times look back (`config set typical-weeks`).
    public var typicalWeeks: Int { configuration.typicalTimeWeeks }

    /// Whether measured travel times are recorded (`config set history-days off` stops it).
    var recordsHistory: Bool { configuration.historyRetentionDays > 0 }

    /// Judges a route's new reading against what the route can be, with or without history:
    /// faster than 130 km/h or slower than walking pace over its distance (a minute of rounding
    /// allowed); over 4× the 90th percentile of its slot where the history has enough readings
    /// there, else over 4× what the source itself calls usual (WSDOT's average, TomTom's historic
    /// time, HERE's typical duration, Google's static duration). Such a reading is held in
    /// `suspiciousMinutes`, out of `currentMinutes`, until the next reading is outside too and so
    /// confirms it. What came before is the history's last record, else `previous` (the route as
    /// cached before this reading): so a route with no history is confirmed the same way. The
    /// reading already held (the same feed reading again) is judged as it was.
    /// Returns the route as it is to be saved and the record to append.
    func judge(_ route: Route, history contents: HistoryFile.Contents?, previous: Route? = nil) -> (route: Route, record: HistoryRecord?) {
        var judged = route
        judged.suspiciousMinutes = nil
        guard let minutes = route.currentMinutes ?? route.suspiciousMinutes else { return (judged, nil) }
        let at = ZonedCalendar.seconds(route.updatedAt)
        let record: HistoryRecord
        let last = contents?.last
        if let last, last.at == at {
            record = HistoryRecord(at: at, minutes: minutes, source: ReadingSource(of: route), outside: last.outside, confirmed: last.confirmed)
        } else {
            let outside = isOutside(minutes, of: route, history: contents)
            let before: Bool
            if let last {
                before = last.outside && last.at < at
            } else if let previous, let held = previous.currentMinutes ?? previous.suspiciousMinutes {
                // Without history, the reading cached before: the same one again keeps its verdict
                // (a confirmed one stays confirmed); an earlier one outside confirms this one.
                let wasOutside = previous.suspiciousMinutes != nil || isOutside(held, of: previous, history: nil)
                if previous.updatedAt == route.updatedAt, held == minutes {
                    let confirmed = outside && previous.suspiciousMinutes == nil
                    return verdict(route, HistoryRecord(at: at, minutes: minutes, source: ReadingSource(of: route), outside: outside, confirmed: confirmed))
                }
                before = wasOutside && previous.updatedAt < route.updatedAt
            } else {
                before = false
            }
            record = HistoryRecord(at: at, minutes: minutes, source: ReadingSource(of: route), outside: outside, confirmed: outside && before)
        }
        return verdict(route, record)
    }

    /// The route as a judged reading leaves it: a suspicious one held back, any other current.
    private func verdict(_ route: Route, _ record: HistoryRecord) -> (route: Route, record: HistoryRecord?) {
        var judged = route
        if record.suspicious {
            judged.currentMinutes = nil
            judged.suspiciousMinutes = record.minutes
        } else {
            judged.currentMinutes = record.minutes
            judged.suspiciousMinutes = nil
        }
        return (judged, record)
    }

    /// Whether `minutes` lies outside what `route` can be: impossible over its distance, or over
    /// `absurdFactor` times what is usual — its history's slot where that has enough readings,
    /// else the source's own usual time.
    func isOutside(_ minutes: Int, of route: Route, history contents: HistoryFile.Contents?) -> Bool {
        if Self.isImpossible(minutes: minutes, distanceMiles: route.distanceMiles) { return true }
        if let contents, let typical = TypicalTimes.slot(
            TimeSlot(calendar.local(route.updatedAt)), in: contents,
            window: TypicalTimes.window(weeks: typicalWeeks, before: route.updatedAt), calendar: calendar),
            typical.isEnough
        {
            return Double(minutes) > Double(Self.absurdFactor) * typical.p90
        }
        if let usual = route.averageMinutes, usual > 0 { return minutes > Self.absurdFactor * usual }
        return false
    }


    /// The warning a reading held back gives, the same from every refresh while it lasts.
    static func heldBack(_ route: Route) -> Refresh.RefreshWarning {
        Refresh.RefreshWarning(
            key: "suspicious:\(route.id)", description: route.suspicionText() + " (held back until a second reading confirms it)",
            isRepeat: false)
    }

    /// Whether `minutes` over `distanceMiles` is faster than any road allows, or slower than
    /// walking the whole way (a minute of rounding allowed either way).
    static func isImpossible(minutes: Int, distanceMiles: Double?) -> Bool {
        guard let miles = distanceMiles, miles > 0 else { return false }
        let kilometres = miles * 1.609_344
        return Double(minutes + 1) / 60 * fastestSpeed < kilometres || Double(minutes - 1) / 60 * walkingSpeed > kilometres
    }

    /// The routes a refresh keeps for the plan and records: favorites (`favorites` when the caller
    /// has read them), the routes of schedules, watches and commutes (custom routes are recorded
    /// whenever they are measured). A file that cannot be read names none.
    func routesInUse(favorites: [RouteID]? = nil) -> Set<RouteID> {
        let saved = try? store.favorites()
        // A commute's ways are recorded too: compare and reliability read their histories.
        var inUse = Set((favorites ?? saved?.routeIDs ?? []) + (saved?.commutes.flatMap(\.routeIDs) ?? []))
        // Thousands of schedules share a few routes: each run of the same routes is added once.
        var previous: [RouteID] = []
        for schedule in (try? store.schedules().schedules) ?? [] where schedule.routeIDs != previous {
            inUse.formUnion(schedule.routeIDs)
            previous = schedule.routeIDs
        }
        return inUse.union(((try? store.configuration().watches) ?? []).map(\.routeID))
    }

    /// Records the readings a refresh judged; what could not be recorded comes back as warnings
    /// (a refresh never fails over its history).
    func record(_ readings: [(routeID: RouteID, record: HistoryRecord)]) -> [Refresh.RefreshWarning] {
        guard recordsHistory, !readings.isEmpty else { return [] }
        do {
            let byRoute = Dictionary(grouping: readings, by: \.routeID).mapValues { $0.map(\.record) }
            let outcome = try store.history.record(byRoute, now: now, retentionDays: configuration.historyRetentionDays)
            return outcome.failures.map { Refresh.RefreshWarning(key: "history:\($0)", description: "history not recorded for route \($0)", isRepeat: false) }
                + outcome.future.sorted().map {
                    Refresh.RefreshWarning(
                        key: "history-future:\($0)", description: "route \($0)'s reading is dated ahead of now: not recorded in its history",
                        isRepeat: false)
                }
        } catch {
            return [Refresh.RefreshWarning(key: "history", description: "travel times not recorded: \(error)", isRepeat: false)]
        }
    }

    /// The usual time of `routeID` in the slot of `moment`, read alone, when it has enough
    /// readings; nil otherwise (and for a history that cannot be read: an alert never fails over it).
    public func typical(_ routeID: RouteID, at moment: Date) -> TypicalTime? {
        guard let contents = try? store.history.contents(of: routeID), contents.count > 0,
            let typical = TypicalTimes.slot(
                TimeSlot(calendar.local(moment)), in: contents, window: TypicalTimes.window(weeks: typicalWeeks, before: now),
                calendar: calendar),
            typical.isEnough
        else { return nil }
        return typical
    }

    /// Whether a route is delayed enough to alert about: `minutes` or more over its usual time;
    /// with `aboveUsual`, over the 90th percentile of its history for `moment`'s quarter hour,
    /// where that has enough readings (else the minutes stand in).
    /// A transit route is delayed when its next departure is late by `minutes` at the second stop,
    /// or cancelled.
    public func isDelayed(_ route: Route, minutes: Int, aboveUsual: Bool, at moment: Date) -> Bool {
        if let transit = route.departures {
            guard let next = transit.next(at: moment) else { return false }
            return next.plannedIsLost || next.delayMinutes >= minutes
        }
        if aboveUsual, let current = route.currentMinutes, let typical = typical(route.id, at: moment) {
            return Double(current) > typical.p90
        }
        return (route.delayMinutes ?? Int.min) >= minutes
    }

    /// For a leave time with no current reading: a route's usual time at a departure, from its
    /// history (read only then).
    public var typicalLookup: LeaveTime.Typical { { routeID, departure in self.typical(routeID, at: departure) } }

    /// The usual times of a schedule's routes at `moment`, for an alert being composed: each
    /// route's slot read alone.
    func usualTimes(of routeIDs: [RouteID], at moment: Date) -> [RouteID: TypicalTime] {
        var usual: [RouteID: TypicalTime] = [:]
        for id in routeIDs where usual[id] == nil {
            if let typical = typical(id, at: moment) { usual[id] = typical }
        }
        return usual
    }

    // MARK: history

    /// What `history ROUTE` shows.
    public struct HistoryView: Sendable {
        public var routeID: RouteID
        /// The route as cached now; nil when it is no longer there.
        public var route: Route?
        public var zone: String
        public var weeks: Int
        /// Every slot with readings in the last `weeks` weeks.
        public var slots: [TimeSlot: TypicalTime]
        /// The readings of the last `days` days, oldest first.
        public var readings: [HistoryRecord]
        /// Where those days begin.
        public var since: Date
        /// Records that failed their check and were skipped.
        public var damaged: Int
        /// Every record the file holds.
        public var total: Int
        /// Whether refreshes record this route now.
        public var isRecorded: Bool
    }

    /// A route's history: typical times over the last weeks, and its readings since local
    /// midnight `days − 1` days ago. A route neither cached nor recorded is unknown.
    public func view(of routeID: RouteID, days: Int) throws -> HistoryView {
        let contents = try store.history.contents(of: routeID)
        let route = try store.routes(withIDs: [routeID])[routeID]
        guard route != nil || contents.count > 0 else { throw ModelError.unknownRoute(routeID) }
        let (slots, damagedInWindow) = TypicalTimes.week(contents, window: TypicalTimes.window(weeks: typicalWeeks, before: now), calendar: calendar)
        let today = calendar.local(now).date.dayNumber
        let since = calendar.instant(on: CivilDate(dayNumber: today - max(days, 1) + 1), hour: 0, minute: 0)
        var readings: [HistoryRecord] = []
        let end = ZonedCalendar.seconds(now) + 1
        let damagedToday = contents.forEach(in: ZonedCalendar.seconds(since)..<end) { readings.append($0) }
        return HistoryView(
            routeID: routeID, route: route, zone: timeZone.identifier, weeks: typicalWeeks, slots: slots, readings: readings,
            since: since, damaged: max(damagedInWindow, damagedToday), total: contents.soundCount,
            isRecorded: (route.map { $0.kind != .feed } ?? false) || routesInUse().contains(routeID))
    }

    /// Every record of the routes given (all that have a history when none are), route by route,
    /// oldest first; damaged records are skipped and counted.
    public func exportHistory(_ routeIDs: [RouteID], _ body: (RouteID, HistoryRecord) throws -> Void) throws -> Int {
        let ids = routeIDs.isEmpty ? store.history.routeIDs() : routeIDs
        var damaged = 0
        for id in ids {
            let contents = try store.history.contents(of: id)
            if contents.count == 0, !routeIDs.isEmpty, try store.routes(withIDs: [id])[id] == nil { throw ModelError.unknownRoute(id) }
            var failure: (any Error)?
            damaged += contents.forEach(in: Int.min..<Int.max) { record in
                guard failure == nil else { return }
                do { try body(id, record) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        return damaged
    }

    /// Adds the readings of a CSV file in `history export --csv`'s form (`-` for standard input),
    /// in two passes a piece at a time: every line is read and checked first, so a file with a
    /// bad line adds nothing; then each known route's readings are recorded, a batch at a time, in
    /// time order after its last record, as a refresh records them (a reading at or before it is
    /// not added again). A route traveltimes does not know (not in the route cache, no history)
    /// gets no file: its readings are counted and skipped. Standard input is kept in a file of
    /// the store for the second pass, and removed.
    public func importHistory(from path: String) throws -> ReadingHistory.Outcome {
        let known = Set(try store.routes().routes.map(\.id)).union(store.history.routeIDs())
        var unknownRoutes: Set<RouteID> = []
        var unknown = 0
        var source = path
        var spool: (descriptor: Int32, path: String)?
        if path == "-" {
            let spoolPath = "\(store.directory)/.history-import.\(getpid()).csv"
            let descriptor = Glibc.open(spoolPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw StoreError.io(path: spoolPath, reason: "cannot create: \(errnoText())") }
            spool = (descriptor, spoolPath)
            source = spoolPath
        }
        defer {
            if let spool {
                close(spool.descriptor)
                unlink(spool.path)
            }
        }
        // First pass: every line checked; the routes it names sorted into known and not.
        try HistoryCSV.forEachReading(path: path, copy: spool.map { spool in
            { bytes in try Self.writeAll(bytes, to: spool.descriptor, path: spool.path) }
        }) { routeID, _ in
            // A file of a million made-up routes is not held in memory to be counted.
            guard !known.contains(routeID), unknownRoutes.count < Self.largestUnknownRoutes else { return }
            unknownRoutes.insert(routeID)
        }
        let days = configuration.historyRetentionDays
        let retention = days > 0 ? days : Configuration.longestHistoryDays
        var outcome = ReadingHistory.Outcome()
        var batch: [RouteID: [HistoryRecord]] = [:]
        var held = 0
        func flush() throws {
            guard held > 0 else { return }
            outcome.add(try store.history.record(batch, now: now, retentionDays: retention))
            batch.removeAll(keepingCapacity: true)
            held = 0
        }
        // Second pass: the known routes' readings, recorded a batch at a time.
        try HistoryCSV.forEachReading(path: source) { routeID, record in
            guard known.contains(routeID) else {
                unknown += 1
                return
            }
            batch[routeID, default: []].append(record)
            held += 1
            if held >= Self.importBatch { try flush() }
        }
        try flush()
        outcome.unknown = unknown
        outcome.unknownRoutes = unknownRoutes.count
        outcome.unknownRoutesCapped = unknownRoutes.count >= Self.largestUnknownRoutes
        return outcome
    }

    /// Readings recorded at once by `history import`; the routes it does not know that it counts
    /// (past it, "at least" that many).
    static let importBatch = 50_000
    static let largestUnknownRoutes = 100_000

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw StoreError.io(path: path, reason: "cannot write: \(errnoText())")
            }
            written += result
        }
    }
}
