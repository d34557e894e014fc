import Basics
import FoundationEssentials
import CommuteModel
import Synchronization

/// The local store: a directory of versioned JSON documents, each in a domain with a lock of its
/// own. Each layer declares its documents (`StoreDocument`) and the operations on them, as
/// extensions of this type in its own module: the schedules and the plan here, the route cache's
/// transit part in CommuteSources, the ledger in CommuteDelivery, the configuration in CommuteCore.
///
/// Reads take no lock: every write replaces a whole file atomically, so a reader sees a whole
/// version. Every read-modify-write holds its domain's lock throughout. An operation spanning
/// domains takes their locks in `Domain` order, so two such operations can never deadlock.
@_spi(Store)
public final class Store: Sendable {
    public let location: StoreDirectory
    public let lockTimeout: TimeInterval

    /// The store's domains (`StoreDomain`), in the order their locks are taken.
    public typealias Domain = StoreDomain

    /// One lock per domain; each guards the domain's files for a read-modify-write.
    private let locks: [Domain: FileLock]

    public static let defaultLockTimeout: TimeInterval = 10

    /// The schedules as last read, with the stamp of the file they were read from: a command that
    /// reads them twice (a refresh: the routes in use, then the plan) decodes them once.
    let schedulesRead = Mutex<(stamp: String, value: ScheduleBook)?>(nil)
    /// The favorites as last read, likewise.
    let favoritesRead = Mutex<(stamp: String, value: Favorites)?>(nil)

    /// Opens (creating, mode 0700) the store directory.
    public init(_ location: StoreDirectory, lockTimeout: TimeInterval = Store.defaultLockTimeout) throws(StoreError) {
        self.location = location
        self.lockTimeout = lockTimeout
        do {
            try FileManager.default.createDirectory(
                atPath: location.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: location.path, reason: "cannot create the store directory: \(systemReason(error))")
        }
        var locks: [Domain: FileLock] = [:]
        for domain in Domain.allCases {
            locks[domain] = FileLock(name: domain.name, path: location.file(".\(domain.name).lock"), timeout: lockTimeout)
        }
        self.locks = locks
    }

    /// The store at `directory` (taken from the working directory when relative).
    public convenience init(directory: String, lockTimeout: TimeInterval = Store.defaultLockTimeout) throws(StoreError) {
        try self.init(StoreDirectory(directory), lockTimeout: lockTimeout)
    }

    /// The directory's absolute path.
    public var directory: String { location.path }

    /// A domain's lock.
    public func lock(_ domain: Domain) -> FileLock {
        // Every domain has one, made in `init`.
        locks[domain] ?? FileLock(name: domain.name, path: location.file(".\(domain.name).lock"), timeout: lockTimeout)
    }

    /// Runs `body` holding the locks of `domains`, taken in the store's order.
    public func withLocks<T>(_ domains: [Domain], _ body: () throws -> T) throws -> T {
        let ordered = Array(Set(domains)).sorted()
        func hold(_ index: Int) throws -> T {
            guard index < ordered.count else { return try body() }
            return try lock(ordered[index]).withLock { try hold(index + 1) }
        }
        return try hold(0)
    }

    /// A document's file.
    public func file<Document: StoreDocument>(_ type: Document.Type = Document.self) -> VersionedFile<Document> {
        VersionedFile(path: location.file(Document.fileName), mapsFile: Document.mapsFile, maximumSize: Document.maximumSize)
    }

    /// A document as it is now, or its empty form when there is no file yet.
    public func read<Document: StoreDocument>(_ type: Document.Type = Document.self) throws(StoreError) -> Document {
        try file(Document.self).load()
    }

    /// Read-modify-write of one document under its domain's lock; nothing is written if `body`
    /// throws or leaves it unchanged.
    public func update<Document: StoreDocument & Equatable, T>(
        _ type: Document.Type = Document.self, _ body: (inout Document) throws -> T
    ) throws -> T {
        try lock(Document.domain).withLock { try file(Document.self).update(body) }
    }
}

/// A document of the store: its file's name, the domain whose lock guards it, and how it is read.
public protocol StoreDocument: VersionedDocument {
    static var fileName: String { get }
    static var domain: StoreDomain { get }
    /// Whether reads map the file rather than copy it (see `MappedFile`): for large files only
    /// ever replaced by rename.
    static var mapsFile: Bool { get }
    /// A file larger than this is refused unread.
    static var maximumSize: Int { get }
}

extension StoreDocument {
    public static var mapsFile: Bool { false }
    public static var maximumSize: Int { RegularFile.defaultMaximumSize }
}

/// The store's domains, in the order their locks are taken.
public enum StoreDomain: Int, CaseIterable, Comparable, Sendable {
    /// `config.json`: settings, notifiers, keys.
    case config
    /// `routes.json`, `transit.json`, `refresh.json`: the route cache and what describes it.
    case routes
    /// `favorites.json`: the favorite route IDs, their order and groups.
    case favorites
    /// `schedules.json`: every schedule.
    case schedules
    /// The notification side: `pending.json` (the plan, which only a reschedule writes),
    /// `delivered.json` (what `tick` did with it), `alerts.json` (notifications still open)
    /// and `health.json` (the health problem told).
    case pending

    public static func < (lhs: StoreDomain, rhs: StoreDomain) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Its name, as its lock file and its messages give it (spelled out: describing an enum case
    /// by reflection costs every command a quarter of a millisecond).
    public var name: String {
        switch self {
        case .config: "config"
        case .routes: "routes"
        case .favorites: "favorites"
        case .schedules: "schedules"
        case .pending: "pending"
        }
    }
}
