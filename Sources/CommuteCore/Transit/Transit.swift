import Basics
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Why a transit feed or route could not be used: a message that names the feed and the file.
public struct TransitProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// Whether it is the outside's (a server, a file) rather than the user's words.
    public var isTemporary: Bool

    public init(_ message: String, isTemporary: Bool = false) {
        self.message = message
        self.isTemporary = isTemporary
    }

    public var description: String { message }
}

extension Transit {
    /// The largest timetable zip fetched or read, and the largest realtime feed.
    public static let largestTimetableZip = 256 << 20
    public static let largestRealtimeFeed = 32 << 20
    /// How often a timetable is asked about again: at most daily.
    public static let timetableInterval: TimeInterval = 86_400
    /// A realtime feed older than this is not used for predictions.
    public static let realtimeLifetime: TimeInterval = 15 * 60

    // MARK: Feeds

    /// The configured feed named `name`.
    public func transitFeed(_ name: String) throws -> TransitFeed {
        guard let feed = configuration.transitFeeds?.first(where: { $0.name == name }) else {
            let known = (configuration.transitFeeds ?? []).map(\.name)
            throw TransitProblem(
                "no transit feed '\(DisplayText.line(name))'" + (known.isEmpty ? "; add one with `traveltimes transit add`" : " (there are: \(known.joined(separator: ", ")))"))
        }
        return feed
    }

    /// The feeds, and what is known of each.
    public func transitFeeds() throws -> [(feed: TransitFeed, state: TransitState.FeedState?, routes: [RouteID])] {
        let state = try store.transitState()
        return (configuration.transitFeeds ?? []).map { feed in
            (feed, state.feeds[feed.name], state.routes.filter { $0.transit?.feed == feed.name }.map(\.id))
        }
    }

    /// Adds a feed: its timetable is fetched now and must be one (an agency with a time zone, and
    /// stops); nothing is saved otherwise.
    public func addTransitFeed(_ feed: TransitFeed, client: any HTTPClient, timeout: TimeInterval) throws -> TransitTimetable.Contents {
        guard configuration.transitFeeds?.contains(where: { $0.name == feed.name }) != true else {
            throw TransitProblem("there is already a transit feed '\(feed.name)' (`traveltimes transit remove \(feed.name)` first)")
        }
        guard (configuration.transitFeeds ?? []).count < Configuration.largestTransitFeedCount else {
            throw TransitProblem("there are \(Configuration.largestTransitFeedCount) transit feeds already; remove one first")
        }
        let fetched = try fetchTimetable(feed, validators: nil, for: [], client: client, timeout: timeout)
        guard case .fresh(let staged, let validators) = fetched else {
            throw TransitProblem("the server answered 304 Not Modified to a request without validators", isTemporary: true)
        }
        defer { unlink(staged.path) }
        try store.updateConfiguration { configuration in
            guard configuration.transitFeeds?.contains(where: { $0.name == feed.name }) != true else {
                throw TransitProblem("there is already a transit feed '\(feed.name)'")
            }
            configuration.transitFeeds = (configuration.transitFeeds ?? []) + [feed]
        }
        var state = TransitState.FeedState()
        state.fetchedAt = now
        state.checkedAt = now
        state.validators = validators.isEmpty ? nil : validators
        state.timeZone = staged.timeZone
        try store.updateTransit { transit in
            try Self.install(staged, as: store.transitPath(feed.name, "zip"))
            transit.feeds[feed.name] = state
        }
        return staged.contents
    }

    /// Removes a feed no route uses, with its files.
    public func removeTransitFeed(_ name: String) throws {
        _ = try transitFeed(name)
        try store.updateTransit { state in
            let users = state.routes.filter { $0.transit?.feed == name }.map(\.id)
            guard users.isEmpty else {
                throw TransitProblem(
                    "transit feed '\(name)' is used by route\(users.count == 1 ? "" : "s") \(users.joined(separator: ", ")): remove \(users.count == 1 ? "it" : "them") first (`traveltimes route remove ID`)")
            }
            state.feeds[name] = nil
        }
        try store.updateConfiguration { configuration in
            configuration.transitFeeds?.removeAll { $0.name == name }
            if configuration.transitFeeds?.isEmpty == true { configuration.transitFeeds = nil }
        }
        for suffix in ["zip", "realtime.pb", "alerts.pb"] { unlink(store.transitPath(name, suffix)) }
    }

    // MARK: Fetching

    /// A timetable zip fetched (or read) into the store's `transit/` under a name of its own, and
    /// checked: an agency with a time zone, stops and trips, every file whole. Moved into place
    /// only once everything built from it is built.
    struct StagedTimetable {
        var path: String
        var timeZone: String
        var contents: TransitTimetable.Contents
        /// Each requested route's trips, read in the same pass as the check.
        var timetables: [Result<TransitTimetable, ZipProblem>]
    }

    enum TimetableFetch {
        case fresh(StagedTimetable, FeedFetcher.Validators)
        case notModified
    }

    /// Fetches a feed's timetable (unless the validators say it is unchanged) and reads it once:
    /// checked whole, and with the trips of each of `requests`.
    func fetchTimetable(
        _ feed: TransitFeed, validators: FeedFetcher.Validators?, for requests: [TransitTimetable.Request], client: any HTTPClient,
        timeout: TimeInterval
    ) throws -> TimetableFetch {
        let (data, newValidators): (Data, FeedFetcher.Validators)
        switch try fetchTransitFile(feed.staticURL, feed: feed, what: "timetable", validators: validators, limit: Self.largestTimetableZip, client: client, timeout: timeout) {
        case .notModified: return .notModified
        case .fresh(let body, let received): (data, newValidators) = (body, received)
        }
        try store.makeTransitDirectory()
        let path = store.transitPath("\(feed.name).\(getpid()).\(UInt32.random(in: 0...UInt32.max))", "zip.new")
        try AtomicFile.write(data, to: path)
        do {
            let archive = try ZipArchive(path: path)
            let reading = try TransitTimetable.read(archive, requests: requests, checkingEverything: true)
            let contents = reading.contents
            guard contents.stops > 0, contents.trips > 0 else { throw ZipProblem("it has no stops or no trips") }
            return .fresh(
                StagedTimetable(path: path, timeZone: contents.timeZone, contents: contents, timetables: reading.timetables), newValidators)
        } catch {
            unlink(path)
            throw TransitProblem("\(feed.name)'s timetable is not a GTFS feed: \(Self.describe(error))")
        }
    }

    /// The outcome of one feed file's fetch.
    enum TransitFetch {
        case fresh(Data, FeedFetcher.Validators)
        case notModified
    }

    /// Fetches one of a feed's files over HTTP (with the feed's headers and, for the timetable,
    /// its validators), or reads it from a file.
    func fetchTransitFile(
        _ text: String, feed: TransitFeed, what: String, validators: FeedFetcher.Validators?, limit: Int, client: any HTTPClient,
        timeout: TimeInterval
    ) throws -> TransitFetch {
        let shown = TransitFeed.shown(text)
        guard let location = TransitLocation(text) else { throw TransitProblem("\(feed.name)'s \(what) '\(shown)' is not a URL or a path") }
        switch location {
        case .file(let path):
            do {
                guard let data = try RegularFile.read(path, maximumSize: limit) else {
                    throw TransitProblem("\(feed.name)'s \(what): \(path) does not exist", isTemporary: true)
                }
                return .fresh(data, FeedFetcher.Validators())
            } catch let error as StoreError {
                throw TransitProblem("\(feed.name)'s \(what): \(error)", isTemporary: true)
            }
        case .url(let url):
            do {
                switch try FeedFetcher(client: client).fetch(
                    url, validators: validators, timeout: timeout, headers: feed.requestHeaders, body: FeedFetcher.binaryBody)
                {
                case .fresh(let data, let received): return .fresh(data, received)
                case .notModified: return .notModified
                }
            } catch {
                let message = FeedSource.redact("\(feed.name)'s \(what) (\(shown)): \(error)", secrets: feed.secrets)
                if case .helperMissing = error { throw error }
                throw TransitProblem(message, isTemporary: true)
            }
        }
    }

    static func install(_ staged: StagedTimetable, as path: String) throws {
        guard rename(staged.path, path) == 0 else {
            throw StoreError.io(path: path, reason: "cannot move the new timetable into place: \(String(cString: strerror(errno)))")
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let problem as ZipProblem: problem.reason
        case let problem as GTFSTable.Problem: problem.description
        case let problem as TransitProblem: problem.message
        default: DisplayText.line(String(describing: error))
        }
    }

    // MARK: Stops

}
