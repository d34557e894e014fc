import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The local store: three domain files, each behind its own lock, plus the notification side's
/// pending file and the configuration behind locks of their own.
///
/// Reads take no lock: every write replaces a whole file atomically, so a reader sees a whole
/// version. Every read-modify-write holds its domain's lock throughout. An operation spanning
/// domains takes their locks in one fixed order — config, routes, favorites, schedules, pending —
/// so two such operations can never deadlock.
public final class Store: Sendable {
    public let directory: String

    /// Protects `routes.json`: the route cache.
    let routesLock: FileLock
    /// Protects `favorites.json`: the favorite route IDs and their order.
    private let favoritesLock: FileLock
    /// Protects `schedules.json`: every schedule.
    private let schedulesLock: FileLock
    /// Protects `pending.json`, `delivered.json`, `alerts.json` and `health.json`: the
    /// notification side — the planned triggers (which only a reschedule writes), the ledger of
    /// what `tick` did with them, the notifications still open, and the health problem `tick` has
    /// told the user about.
    private let pendingLock: FileLock
    /// Protects `config.json`: the source and the access code.
    private let configLock: FileLock

    let routesFile: VersionedFile<RouteCache>
    /// Belongs to the routes domain: written under `routesLock`.
    let transitFile: VersionedFile<TransitState>
    private let favoritesFile: VersionedFile<Favorites>
    private let schedulesFile: VersionedFile<ScheduleBook>
    private let pendingFile: VersionedFile<PendingBook>
    private let configFile: VersionedFile<Configuration>
    /// Belongs to the notification side: written under `pendingLock`.
    private let ledgerFile: VersionedFile<DeliveryLedger>
    /// Belongs to the routes domain: written under `routesLock`.
    private let refreshLogFile: VersionedFile<RefreshLog>
    /// Belongs to the notification side: written under `pendingLock`.
    private let healthFile: VersionedFile<HealthRecord>
    /// Belongs to the notification side: written under `pendingLock`.
    private let alertsFile: VersionedFile<OpenAlerts>
    /// Every travel time measured, one file per route in `history/`, behind a lock of its own.
    public let history: ReadingHistory

    public static let defaultLockTimeout: TimeInterval = 10

    /// Opens (creating, mode 0700) the store directory.
    public init(directory: String, lockTimeout: TimeInterval = Store.defaultLockTimeout) throws(StoreError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: directory, reason: "cannot create the store directory: \(systemReason(error))")
        }
        func lock(_ name: String) -> FileLock {
            FileLock(name: name, path: "\(directory)/.\(name).lock", timeout: lockTimeout)
        }
        routesLock = lock("routes")
        favoritesLock = lock("favorites")
        schedulesLock = lock("schedules")
        pendingLock = lock("pending")
        configLock = lock("config")
        routesFile = VersionedFile(
            path: "\(directory)/routes.json", mapsFile: true, maximumSize: RegularFile.routeCacheMaximumSize)
        favoritesFile = VersionedFile(path: "\(directory)/favorites.json")
        schedulesFile = VersionedFile(path: "\(directory)/schedules.json")
        // Mapped: tick reads the scheduled requests at its start and never touches the rest.
        pendingFile = VersionedFile(path: "\(directory)/pending.json", mapsFile: true)
        configFile = VersionedFile(path: "\(directory)/config.json")
        // Mapped: a ledger left to grow (by an older version) is read without a copy.
        ledgerFile = VersionedFile(path: "\(directory)/delivered.json", mapsFile: true)
        refreshLogFile = VersionedFile(path: "\(directory)/refresh.json")
        healthFile = VersionedFile(path: "\(directory)/health.json")
        alertsFile = VersionedFile(path: "\(directory)/alerts.json")
        transitFile = VersionedFile(path: "\(directory)/transit.json")
        history = ReadingHistory(storeDirectory: directory, lockTimeout: lockTimeout)
    }

    // MARK: Reading

    /// The route cache. End points (where each route starts and ends) are left out unless asked
    /// for: only the one-route view shows them, and reading them is a third of the work.
    public func routes(includingEndPoints: Bool = false) throws(StoreError) -> RouteCache {
        var cache = try routesFile.load { try RouteCache.decodeDocument(from: $0, includingEndPoints: includingEndPoints) }
        cache.routes += try transitRoutes()
        return cache
    }
    /// Cached routes whose name or description contains `search` (any case), and the newest update
    /// time of all routes; for a non-ASCII search, routes are built and matched in full.
    public func searchRoutes(_ text: String) throws(StoreError) -> (routes: [Route], newest: Date?) {
        var result: (routes: [Route], newest: Date?) = ([], nil)
        if let search = TextSearch(text) {
            _ = try routesFile.load { data in
                result = try RouteCache.search(data, for: search)
                return RouteCache.empty
            }
            // A nameless route was kept for a second look: match it as it is shown.
            result.routes = result.routes.filter { $0.matches(text) }
        } else {
            let cache = try routes()
            result.routes = cache.routes.filter { $0.matches(text) }
            result.newest = cache.routes.map(\.updatedAt).max()
            return result
        }
        let transit = try transitRoutes()
        result.routes += transit.filter { $0.matches(text) }
        result.newest = ([result.newest].compactMap { $0 } + transit.map(\.updatedAt)).max()
        return result
    }

    /// The cached routes with these IDs, by ID; the others are passed over unbuilt.
    public func routes(withIDs ids: Set<String>, includingEndPoints: Bool = false) throws(StoreError) -> [String: Route] {
        var found = try RouteCache.routes(atPath: routesFile.path, withIDs: ids, includingEndPoints: includingEndPoints)
        if found.count < ids.count { found += try transitRoutes().filter { ids.contains($0.id) } }
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What precedes the routes in the cache (when and where they were fetched, the validators),
    /// read without reading the routes.
    public func routeCacheHeader() throws(StoreError) -> RouteCache.Header {
        var header = RouteCache.Header()
        _ = try routesFile.load { data in
            header = try RouteCache.decodeHeader(from: data)
            return RouteCache.empty
        }
        return header
    }

    public func favorites() throws(StoreError) -> Favorites { try favoritesFile.load() }
    public func schedules() throws(StoreError) -> ScheduleBook { try schedulesFile.load() }
    public func pending() throws(StoreError) -> PendingBook { try pendingFile.load() }
    /// The plan, with as much of its deferred requests as `deferred` asks for.
    public func pending(deferred: PendingBook.DeferredReading) throws(StoreError) -> PendingBook {
        try pendingFile.load { try PendingBook.decodeDocument(from: $0, deferred: deferred) }
    }
    public func configuration() throws(StoreError) -> Configuration { try configFile.load() }
    public func refreshLog() throws(StoreError) -> RefreshLog { try refreshLogFile.load() }
    /// The ledger; with `horizon`, without the entries decided before it (read and left out).
    public func ledger(keepingSince horizon: Date? = nil) throws(StoreError) -> DeliveryLedger {
        var dropped = 0
        return try ledger(keepingSince: horizon, dropped: &dropped)
    }

    /// The ledger's decisions at or after `start`, and how many it keeps from before then (since
    /// `horizon`) that were left unread: what `delivered` shows.
    public func ledger(keepingSince horizon: Date?, showingSince start: Date) throws(StoreError) -> (ledger: DeliveryLedger, older: Int) {
        var dropped = 0
        var older = 0
        let ledger = try ledgerFile.load {
            try DeliveryLedger.decodeDocument(from: $0, keepingSince: horizon, showingSince: start, dropped: &dropped, older: &older)
        }
        return (ledger, older)
    }

    /// When each decision in the ledger since `horizon` was made and what it was, newest last:
    /// the ledger read for `status`, which shows no more.
    public func ledgerDecisions(since horizon: Date?) throws(StoreError) -> [(at: Date, outcome: DeliveryLedger.Entry.Outcome)] {
        var decisions: [(at: Date, outcome: DeliveryLedger.Entry.Outcome)] = []
        _ = try ledgerFile.load { data in
            decisions = try DeliveryLedger.decisions(from: data, since: horizon)
            return DeliveryLedger.empty
        }
        return decisions
    }

    private func ledger(keepingSince horizon: Date?, dropped: inout Int) throws(StoreError) -> DeliveryLedger {
        try ledgerFile.load { try DeliveryLedger.decodeDocument(from: $0, keepingSince: horizon, dropped: &dropped) }
    }
    /// The health problem `tick` found and has not yet seen mended; absent most of the time.
    public func health() throws(StoreError) -> HealthRecord { try healthFile.load() }

    /// The notifications that may still change; empty (no file) most of the time.
    public func openAlerts() throws(StoreError) -> OpenAlerts { try alertsFile.load() }

    // MARK: Writing, one domain at a time

    /// Replaces the feed's routes in the cache with the routes that `body` hands to `save`, each
    /// written to the new file as it comes: a feed of any size is saved without ever being whole in
    /// memory. The custom routes are carried over after them, and returned. `body` is also given
    /// the feed's routes of the current file that `keeping` picks, by ID (what a reading is judged
    /// against). The current file must be readable (or absent): the store never overwrites what it
    /// cannot read. If `body` throws, the cache is left as it was and the error passes through.
    public func replaceRoutes<T>(
        fetchedAt: Date?, source: String?, validators: FeedFetcher.Validators? = nil, keeping: (Route) -> Bool = { _ in false },
        _ body: (_ previous: [String: Route], _ save: (Route) throws -> Void) throws -> T
    ) throws -> (result: T, custom: [Route]) {
        try routesLock.withLock {
            let (custom, previous) = try RouteCache.customRoutesCheckingFile(atPath: routesFile.path, keeping: keeping)
            let result = try AtomicFile.write(to: routesFile.path) { file in
                var encoder = RouteCache.Encoder(
                    fetchedAt: fetchedAt, source: source, validators: validators, capacity: Self.routeFlushSize + 4_096)
                let result = try body(previous) { route in
                    // The feed's IDs are numbers, a custom route's never: a route that claims to be
                    // custom is not the feed's to write.
                    guard route.custom == nil else { return }
                    encoder.append(route)
                    if encoder.pendingByteCount >= Self.routeFlushSize { try encoder.flush(to: file) }
                }
                for route in custom { encoder.append(route) }
                encoder.finish()
                try encoder.flush(to: file)
                return result
            }
            return (result, custom)
        }
    }

    /// Read-modify-write of the custom routes, under the routes lock; the feed's routes and the
    /// header are written back as they were. Nothing is written if `body` throws or changes nothing.
    public func updateCustomRoutes<T>(_ body: (inout [Route]) throws -> T) throws -> T {
        try routesLock.withLock {
            var cache = try routesFile.load()
            let feed = cache.routes.filter { $0.custom == nil }
            var custom = cache.routes.filter { $0.custom != nil }
            let original = custom
            let result = try body(&custom)
            if custom != original {
                cache.routes = feed + custom
                try routesFile.save(cache)
            }
            return result
        }
    }

    /// How much of a new route cache is gathered before it is written out.
    private static let routeFlushSize = 64 * 1_024

    /// Read-modify-write of the configuration, under its lock.
    public func updateConfiguration<T>(_ body: (inout Configuration) throws -> T) throws -> T {
        try configLock.withLock { try update(configFile, body) }
    }

    /// Read-modify-write of the refresh log, under the routes lock (it describes the route cache).
    public func updateRefreshLog<T>(_ body: (inout RefreshLog) throws -> T) throws -> T {
        try routesLock.withLock { try update(refreshLogFile, body) }
    }

    /// Read-modify-write of the favorites, under their lock. Nothing is written if `body` throws
    /// or leaves them unchanged.
    public func updateFavorites<T>(_ body: (inout Favorites) throws -> T) throws -> T {
        try favoritesLock.withLock { try update(favoritesFile, body) }
    }

    /// Read-modify-write of the schedules, under their lock.
    public func updateSchedules<T>(_ body: (inout ScheduleBook) throws -> T) throws -> T {
        try schedulesLock.withLock { try update(schedulesFile, body) }
    }

    /// Read-modify-write of favorites and schedules together (unfavouriting cascades into
    /// schedules), locks taken in the store's fixed order.
    public func updateFavoritesAndSchedules<T>(_ body: (inout Favorites, inout ScheduleBook) throws -> T) throws -> T {
        try favoritesLock.withLock {
            try schedulesLock.withLock {
                var favorites = try favoritesFile.load()
                var book = try schedulesFile.load()
                let originalFavorites = favorites
                let originalBook = book
                let result = try body(&favorites, &book)
                // Schedules first: a crash between the two writes leaves a favorite that no schedule
                // uses, never a schedule that uses a route which is no longer a favorite.
                if book != originalBook { try schedulesFile.save(book) }
                if favorites != originalFavorites { try favoritesFile.save(favorites) }
                return result
            }
        }
    }

    /// Re-plans the pending triggers under the pending lock. The schedules are read after the lock
    /// is taken, so whichever reschedule writes last has seen the latest schedules. `makePlan`
    /// receives them, the previous plan and the ledger (nil when it cannot be read: a plan never
    /// fails over it), and returns the new pending book. Returns the previous book and the new.
    ///
    /// The plan is stamped with the schedules file it was made from; the stamp is taken before the
    /// file is read, so a change that lands in between leaves a stamp that no longer matches, and
    /// the plan is made again — never a stale plan marked fresh.
    public func reschedule(
        ledgerSince horizon: Date? = nil, _ makePlan: (ScheduleBook, PendingBook, DeliveryLedger?) throws -> PendingBook
    ) throws -> (previous: PendingBook, new: PendingBook) {
        try pendingLock.withLock {
            let previous = try pendingFile.load()
            let stamp = FileStamp.of(schedulesFile.path)
            let book = try schedulesFile.load()
            var pending = try makePlan(book, previous, try? ledger(keepingSince: horizon))
            pending.schedulesStamp = stamp
            try pendingFile.save(pending)
            return (previous, pending)
        }
    }

    /// Whether the plan was made from the schedules as they are now; false when a command died
    /// between saving the schedules and planning them. One `stat`, no read.
    public func planIsCurrent(_ plan: PendingBook) -> Bool {
        plan.schedulesStamp == FileStamp.of(schedulesFile.path)
    }

    /// Changes the schedules (with the favorites, when `favoritesAccess` is exclusive) and
    /// re-plans, as one step that does all or nothing: every file the change and the plan need —
    /// favorites, schedules, the plan, and whatever `makePlan` reads — is read before anything is
    /// written, so an unreadable one fails the command with nothing changed. Then the schedules
    /// are written, the favorites, and the plan last, stamped with the schedules just written. A
    /// process killed between the writes leaves a plan whose stamp does not match, which the next
    /// command that plans (`tick` included) makes again. Locks in the store's order: favorites
    /// (shared unless they change), schedules, pending.
    public func changeSchedules<T>(
        favoritesAccess: FileLock.Mode = .shared, ledgerSince horizon: Date? = nil,
        _ change: (inout Favorites, inout ScheduleBook) throws -> T,
        plan makePlan: (ScheduleBook, PendingBook, DeliveryLedger?) throws -> PendingBook
    ) throws -> (result: T, previous: PendingBook, new: PendingBook) {
        try favoritesLock.withLock(favoritesAccess) {
            try schedulesLock.withLock {
                try pendingLock.withLock {
                    var favorites = try favoritesFile.load()
                    var book = try schedulesFile.load()
                    let previous = try pendingFile.load()
                    let originalFavorites = favorites
                    let originalBook = book
                    let result = try change(&favorites, &book)
                    guard favoritesAccess == .exclusive || favorites == originalFavorites else {
                        preconditionFailure("changeSchedules: favorites changed under a shared lock")
                    }
                    var pending = try makePlan(book, previous, try? ledger(keepingSince: horizon))
                    if book != originalBook { try schedulesFile.save(book) }
                    if favorites != originalFavorites { try favoritesFile.save(favorites) }
                    pending.schedulesStamp = FileStamp.of(schedulesFile.path)
                    try pendingFile.save(pending)
                    return (result, previous, pending)
                }
            }
        }
    }

    /// Throws unless every file a re-plan reads — the schedules, the plan, the route cache — is
    /// absent or readable: what a change spanning other domains (a custom route's removal) checks
    /// before it writes anything.
    public func checkPlanInputs() throws(StoreError) {
        _ = try schedulesFile.load()
        _ = try pendingFile.load()
        _ = try routes()
    }

    /// Read-modify-write of the ledger under the pending lock. Every write of the ledger drops
    /// the entries decided before `horizon` (the caller's moment less `DeliveryLedger.retention`),
    /// so it stays a month long whichever command writes it.
    public func updateLedger<T>(keepingSince horizon: Date?, _ body: (inout DeliveryLedger) throws -> T) throws -> T {
        try pendingLock.withLock { try updateLedgerFile(horizon, body) }
    }

    /// Read-modify-write of the ledger and the open alerts under the pending lock: how every
    /// send, update and clear is recorded, with the handle a later process needs.
    public func updateLedgerAndAlerts<T>(
        keepingSince horizon: Date?, _ body: (inout DeliveryLedger, inout OpenAlerts) throws -> T
    ) throws -> T {
        try pendingLock.withLock {
            try update(alertsFile) { alerts in try updateLedgerFile(horizon) { try body(&$0, &alerts) } }
        }
    }

    /// Read-modify-write of the health record and the ledger under the pending lock: how `tick`
    /// tells of a health problem, and of its end, once however many ticks run.
    public func updateHealthAndLedger<T>(
        keepingSince horizon: Date?, _ body: (inout HealthRecord, inout DeliveryLedger) throws -> T
    ) throws -> T {
        try pendingLock.withLock {
            try update(healthFile) { record in try updateLedgerFile(horizon) { try body(&record, &$0) } }
        }
    }

    /// Reads the scheduled requests (the deferred ones are left unread) and read-modify-writes
    /// the ledger under the pending lock: how `tick` claims occurrences so that two ticks never
    /// take the same one.
    public func updateLedgerWithPlan<T>(keepingSince horizon: Date?, _ body: (PendingBook, inout DeliveryLedger) throws -> T) throws -> T {
        try pendingLock.withLock {
            let pending = try pendingFile.load { try PendingBook.decodeDocument(from: $0, deferred: .none) }
            return try updateLedgerFile(horizon) { try body(pending, &$0) }
        }
    }

    /// Not thread-safe on its own: the caller holds the pending lock. Written when `body` changed
    /// the ledger or the horizon left entries out.
    private func updateLedgerFile<T>(_ horizon: Date?, _ body: (inout DeliveryLedger) throws -> T) throws -> T {
        var dropped = 0
        var ledger = try ledger(keepingSince: horizon, dropped: &dropped)
        let original = ledger
        let result = try body(&ledger)
        if ledger != original || dropped > 0 { try ledgerFile.save(ledger) }
        return result
    }

    /// Not thread-safe on its own: the caller holds the file's lock.
    private func update<Document: Equatable, T>(
        _ file: VersionedFile<Document>, _ body: (inout Document) throws -> T
    ) throws -> T {
        var document = try file.load()
        let original = document
        let result = try body(&document)
        if document != original { try file.save(document) }
        return result
    }
}
