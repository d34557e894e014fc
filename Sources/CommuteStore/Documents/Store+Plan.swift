import CommuteModel
import FoundationEssentials
import Synchronization

@_spi(Store)
extension ScheduleBook: StoreDocument {
    public static let fileName = "schedules.json"
    public static let domain = StoreDomain.schedules
}

@_spi(Store)
extension Favorites: StoreDocument {
    public static let fileName = "favorites.json"
    public static let domain = StoreDomain.favorites
}

@_spi(Store)
extension PendingBook: StoreDocument {
    public static let fileName = "pending.json"
    public static let domain = StoreDomain.pending
    /// Mapped: tick reads the scheduled requests at its start and never touches the rest.
    public static let mapsFile = true
}

/// The schedules, the favorites and the plan made from them.
@_spi(Store)
extension Store {
    /// The favorites; decoded again only when the file is not the one last read (a refresh with
    /// exports asks for them several times).
    public func favorites() throws(StoreError) -> Favorites { try read(Favorites.self, remembered: favoritesRead) }
    /// The schedules, likewise.
    public func schedules() throws(StoreError) -> ScheduleBook { try read(ScheduleBook.self, remembered: schedulesRead) }

    /// A document, decoded again only when its file is not the one last read (every write
    /// replaces it, so its stamp changes): `last` keeps the stamp and what it held.
    private func read<Document: StoreDocument & Sendable>(
        _ type: Document.Type, remembered last: borrowing Mutex<(stamp: String, value: Document)?>
    ) throws(StoreError) -> Document {
        let path = file(type).path
        let stamp = FileStamp.of(path)
        if let stamp, let known = last.withLock({ $0 }), known.stamp == stamp { return known.value }
        let document = try read(type)
        if let stamp, FileStamp.of(path) == stamp { last.withLock { $0 = (stamp, document) } }
        return document
    }
    public func pending() throws(StoreError) -> PendingBook { try read(PendingBook.self) }

    /// The schedules in numbers. When `plan` was made from the file as it is (its stamp), that
    /// reading found it good, and it is counted without building 3,000 schedules; else it is
    /// read whole, and refused as every reading refuses it.
    public func scheduleSummary(vouchedBy plan: PendingBook?) throws(StoreError) -> ScheduleSummary {
        let schedulesFile = file(ScheduleBook.self)
        if let stamp = plan?.schedulesStamp, FileStamp.of(schedulesFile.path) == stamp {
            var summary: ScheduleSummary?
            _ = try? schedulesFile.load { data in
                summary = ScheduleBook.summary(from: data)
                return ScheduleBook.empty
            }
            if let summary, FileStamp.of(schedulesFile.path) == stamp { return summary }
        }
        return ScheduleSummary(try schedules())
    }

    /// The plan, with as much of its deferred requests as `deferred` asks for.
    public func pending(deferred: PendingBook.DeferredReading) throws(StoreError) -> PendingBook {
        try file(PendingBook.self).load { try PendingBook.decodeDocument(from: $0, deferred: deferred) }
    }

    /// Read-modify-write of the favorites, under their lock. Nothing is written if `body` throws
    /// or leaves them unchanged.
    public func updateFavorites<T>(_ body: (inout Favorites) throws -> T) throws -> T { try update(Favorites.self, body) }

    /// Read-modify-write of the schedules, under their lock.
    public func updateSchedules<T>(_ body: (inout ScheduleBook) throws -> T) throws -> T { try update(ScheduleBook.self, body) }

    /// Read-modify-write of favorites and schedules together (unfavouriting cascades into
    /// schedules), locks taken in the store's fixed order.
    public func updateFavoritesAndSchedules<T>(_ body: (inout Favorites, inout ScheduleBook) throws -> T) throws -> T {
        try withLocks([.favorites, .schedules]) {
            let favoritesFile = file(Favorites.self)
            let schedulesFile = file(ScheduleBook.self)
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

    /// Whether the plan was made from the schedules as they are now; false when a command died
    /// between saving the schedules and planning them. One `stat`, no read.
    public func planIsCurrent(_ plan: PendingBook) -> Bool {
        plan.schedulesStamp == FileStamp.of(file(ScheduleBook.self).path)
    }
}
