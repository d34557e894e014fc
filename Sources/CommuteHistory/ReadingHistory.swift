import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Every travel time measured for the routes in use, one file per route in `history/` (see
/// `HistoryFile`). Reads take no lock; appends and retention take the history lock, so two
/// refreshes at once never lose or double a record.
public final class ReadingHistory: Sendable {
    public let directory: String
    /// Protects every file in `history/`: each append (read the last record, then write after it)
    /// and each retention rewrite. Taken after any other store lock, never before one.
    private let lock: FileLock
    /// Each route's readings as this process last read them, with the stamp of the file they were
    /// read from: a refresh reads a favourite's history for its alerts, its Home Assistant sensor
    /// and its metrics — 163 favourites mapped once each, and looked at (`stat`) after. A file
    /// that changed (a reading appended, here or by another process) is read again.
    private static let read = Mutex<[String: (stamp: String, contents: HistoryFile.Contents)]>([:])

    /// A reading dated further ahead than this is not recorded: a clock or a feed gone wrong would
    /// otherwise hold every true reading out until that date.
    public static let futureTolerance = 600
    /// Retention drops old records only once they are this far past it, so a file is rewritten
    /// about once a month, not at every refresh.
    static let retentionSlack = 30 * 86_400

    init(storeDirectory: String, lockTimeout: TimeInterval) {
        directory = "\(storeDirectory)/history"
        lock = FileLock(name: "history", path: "\(storeDirectory)/.history.lock", timeout: lockTimeout)
    }

    public func path(of routeID: RouteID) -> String { "\(directory)/\(routeID).tth" }

    /// A route's readings, mapped; empty when it has none. A file that is not a history file is
    /// refused with its path.
    package func contents(of routeID: RouteID) throws(StoreError) -> HistoryFile.Contents {
        guard routeID.isValid else { return HistoryFile.Contents() }
        let path = path(of: routeID)
        guard let stamp = FileStamp.of(path) else { return try HistoryFile.Contents(path: path) ?? HistoryFile.Contents() }
        if let known = Self.read.withLock({ $0[path] }), known.stamp == stamp { return known.contents }
        let contents = try HistoryFile.Contents(path: path) ?? HistoryFile.Contents()
        if FileStamp.of(path) == stamp {
            Self.read.withLock { read in
                // A process that reads more than a household's routes keeps only the latest.
                if read.count >= 2_000 { read.removeAll() }
                read[path] = (stamp, contents)
            }
        }
        return contents
    }

    /// The routes with a history file, in order of their IDs (numbers first, by value).
    public func routeIDs() -> [RouteID] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name -> RouteID? in
            guard name.hasSuffix(".tth") else { return nil }
            let id = String(name.dropLast(4))
            return RouteID(validating: id)
        }.sorted { lhs, rhs in
            switch (Int(lhs.rawValue), Int(rhs.rawValue)) {
            case let (left?, right?): left < right
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs < rhs
            }
        }
    }

    /// What recording did.
    public struct Outcome: Sendable, Equatable {
        public init() {}

        /// Adds another batch's counts to these.
        package mutating func add(_ other: Outcome) {
            recorded += other.recorded
            repeated += other.repeated
            inserted += other.inserted
            future.formUnion(other.future)
            futureCount += other.futureCount
            expired += other.expired
            failures += other.failures.filter { !failures.contains($0) }
        }

        public var recorded = 0
        /// Readings already recorded: the same feed reading fetched again.
        public var repeated = 0
        /// Of those recorded, how many were older than the route's last record (a refresh that lost
        /// the race to another, a clock that went back) and were put in their place.
        public var inserted = 0
        /// The routes with readings dated ahead of now, and how many: not recorded.
        public var future: Set<RouteID> = []
        public var futureCount = 0
        /// Readings of routes traveltimes does not know (`history import`), and how many routes:
        /// not recorded.
        public var unknown = 0
        public var unknownRoutes = 0
        /// `unknownRoutes` stopped counting there: at least that many.
        public var unknownRoutesCapped = false
        /// Readings older than the days kept: not recorded.
        public var expired = 0
        /// Routes whose file could not be written, and why.
        public var failures: [String] = []
    }

    /// Records each route's new readings in time order: appended after the last one, or — dated
    /// before it — put in their place. A reading whose time is already recorded is not written
    /// again, so the same feed reading is recorded once however often refresh runs; one older than
    /// `retentionDays` is not recorded at all. Records older than `retentionDays` are dropped
    /// (the file rewritten whole) once they are a month past it. A route's file that cannot be read
    /// or written is reported, and the others are recorded.
    public func record(_ byRoute: [RouteID: [HistoryRecord]], now: Date, retentionDays: Int) throws -> Outcome {
        var outcome = Outcome()
        guard !byRoute.isEmpty else { return outcome }
        let moment = Int(now.timeIntervalSince1970.rounded(.down))
        try makeDirectory()
        try lock.withLock {
            for routeID in byRoute.keys.sorted() where routeID.isValid {
                let path = path(of: routeID)
                do {
                    var contents = try HistoryFile.Contents(path: path) ?? HistoryFile.Contents()
                    let cutoff = moment - retentionDays * 86_400
                    if let first = contents.first, first.at < cutoff - Self.retentionSlack {
                        try HistoryFile.rewrite(contents, keepingFrom: cutoff, to: path)
                        contents = try HistoryFile.Contents(path: path) ?? HistoryFile.Contents()
                    }
                    var last = contents.last?.at ?? Int.min
                    var fresh: [HistoryRecord] = []
                    var late: [HistoryRecord] = []
                    for record in (byRoute[routeID] ?? []).sorted(by: { $0.at < $1.at }) {
                        if record.at > moment + Self.futureTolerance {
                            outcome.future.insert(routeID)
                            outcome.futureCount += 1
                        } else if record.at < cutoff {
                            outcome.expired += 1
                        } else if record.at > last {
                            fresh.append(record)
                            last = record.at
                        } else if record.at == last || contents.contains(at: record.at) || late.last?.at == record.at {
                            outcome.repeated += 1
                        } else {
                            late.append(record)
                        }
                    }
                    if late.isEmpty {
                        try HistoryFile.append(fresh, to: path)
                    } else {
                        // Older than the last record (another process's refresh got in first, or a
                        // clock went back): put in its place, the file rewritten whole.
                        try HistoryFile.rewrite(contents, keepingFrom: Int.min, inserting: late + fresh, to: path)
                        outcome.inserted += late.count
                    }
                    outcome.recorded += fresh.count + late.count
                } catch {
                    outcome.failures.append("\(routeID): \(error)")
                }
            }
        }
        return outcome
    }

    /// Removes a route's history: a custom route removed, or moved to other ends.
    public func remove(_ routeID: RouteID) throws {
        guard routeID.isValid else { return }
        try lock.withLock {
            if unlink(path(of: routeID)) != 0, errno != ENOENT {
                throw StoreError.io(path: path(of: routeID), reason: "cannot remove: \(errnoText())")
            }
        }
    }

    private func makeDirectory() throws(StoreError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: directory, reason: "cannot create the history directory: \(systemReason(error))")
        }
    }
}

extension Store {
    /// Every travel time measured, one file per route in `history/`, behind a lock of its own.
    public var history: ReadingHistory { ReadingHistory(storeDirectory: directory, lockTimeout: lockTimeout) }
}
