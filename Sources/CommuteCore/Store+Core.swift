@_spi(Store) import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials
@_spi(Store) import CommuteHistory
@_spi(Store) import CommuteSources

/// The documents the door keeps — the configuration, the refresh log, the health record — and the
/// operations that span the store's domains.
extension Store {
    public func configuration() throws(StoreError) -> Configuration { try read(Configuration.self) }
    public func refreshLog() throws(StoreError) -> RefreshLog { try read(RefreshLog.self) }
    /// The health problem `tick` found and has not yet seen mended; absent most of the time.
    public func health() throws(StoreError) -> HealthRecord { try read(HealthRecord.self) }

    /// Read-modify-write of the configuration, under its lock.
    public func updateConfiguration<T>(_ body: (inout Configuration) throws -> T) throws -> T { try update(Configuration.self, body) }

    /// Read-modify-write of the refresh log, under the routes lock (it describes the route cache).
    public func updateRefreshLog<T>(_ body: (inout RefreshLog) throws -> T) throws -> T { try update(RefreshLog.self, body) }

    /// Read-modify-write of the health record and the ledger under the pending lock: how `tick`
    /// tells of a health problem, and of its end, once however many ticks run.
    public func updateHealthAndLedger<T>(
        keepingSince horizon: Date?, _ body: (inout HealthRecord, inout DeliveryLedger) throws -> T
    ) throws -> T {
        try lock(.pending).withLock {
            try file(HealthRecord.self).update { record in try updateLedgerHeld(keepingSince: horizon) { try body(&record, &$0) } }
        }
    }

    /// What a new plan is made from.
    public struct PlanInputs {
        public var schedules: ScheduleBook
        public var previous: PendingBook
        /// The schedules the previous plan was made from, when it is known (its stamp is the
        /// file's): every request of theirs is in that plan, listed or deferred.
        public var previousSchedules: ScheduleBook?
        /// The ledger's entries decided since the cutoff asked for; nil when it cannot be read.
        public var ledger: DeliveryLedger?
    }

    /// Re-plans the pending triggers under the pending lock. The schedules are read after the lock
    /// is taken, so whichever reschedule writes last has seen the latest schedules. `makePlan`
    /// receives them, the previous plan and the ledger since `cutoff` of it (nil when it cannot be
    /// read: a plan never fails over it), and returns the new pending book. Returns the previous book and the new.
    ///
    /// The plan is stamped with the schedules file it was made from; the stamp is taken before the
    /// file is read, so a change that lands in between leaves a stamp that no longer matches, and
    /// the plan is made again — never a stale plan marked fresh.
    public func reschedule(
        ledgerSince cutoff: (PendingBook) -> Date, _ makePlan: (PlanInputs) throws -> PendingBook
    ) throws -> (previous: PendingBook, new: PendingBook) {
        try lock(.pending).withLock {
            let pendingFile = file(PendingBook.self)
            let schedulesFile = file(ScheduleBook.self)
            let previous = try pendingFile.load()
            let stamp = FileStamp.of(schedulesFile.path)
            let book = try schedules()
            var pending = try makePlan(PlanInputs(
                schedules: book, previous: previous, previousSchedules: stamp != nil && previous.schedulesStamp == stamp ? book : nil,
                ledger: try? ledgerTail(since: cutoff(previous))))
            pending.schedulesStamp = stamp
            try pendingFile.save(pending)
            return (previous, pending)
        }
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
        favoritesAccess: FileLock.Mode = .shared, ledgerSince cutoff: (PendingBook) -> Date,
        _ change: (inout Favorites, inout ScheduleBook) throws -> T,
        plan makePlan: (PlanInputs) throws -> PendingBook
    ) throws -> (result: T, previous: PendingBook, new: PendingBook) {
        let favoritesFile = file(Favorites.self)
        let schedulesFile = file(ScheduleBook.self)
        let pendingFile = file(PendingBook.self)
        return try lock(.favorites).withLock(favoritesAccess) {
            try withLocks([.schedules, .pending]) {
                var favorites = try favoritesFile.load()
                let stamp = FileStamp.of(schedulesFile.path)
                var book = try schedulesFile.load()
                let previous = try pendingFile.load()
                let originalFavorites = favorites
                let originalBook = book
                let result = try change(&favorites, &book)
                guard favoritesAccess == .exclusive || favorites == originalFavorites else {
                    preconditionFailure("changeSchedules: favorites changed under a shared lock")
                }
                var pending = try makePlan(PlanInputs(
                    schedules: book, previous: previous,
                    previousSchedules: stamp != nil && previous.schedulesStamp == stamp ? originalBook : nil,
                    ledger: try? ledgerTail(since: cutoff(previous))))
                if book != originalBook { try schedulesFile.save(book) }
                if favorites != originalFavorites { try favoritesFile.save(favorites) }
                pending.schedulesStamp = FileStamp.of(schedulesFile.path)
                try pendingFile.save(pending)
                return (result, previous, pending)
            }
        }
    }

    /// Throws unless every file a re-plan reads — the schedules, the plan, the route cache — is
    /// absent or readable: what a change spanning other domains (a custom route's removal) checks
    /// before it writes anything.
    public func checkPlanInputs() throws(StoreError) {
        _ = try schedules()
        _ = try pending()
        _ = try routes()
    }
}
