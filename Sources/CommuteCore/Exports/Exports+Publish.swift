import Basics
import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Why an export cannot be added or used: one line naming it, never its token or password.
public struct ExportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The user's words are wrong (a URL, a path), not the server.
    public var isUsersFault: Bool
    public init(_ message: String, isUsersFault: Bool = false) {
        self.message = message
        self.isUsersFault = isUsersFault
    }
    public var description: String { message }
}

extension Exports {
    /// What one export did in a run.
    public struct Outcome: Sendable, Equatable {
        public enum Result: Sendable, Equatable {
            /// Nothing had changed: nothing was sent or written.
            case unchanged
            /// `count` sensors, messages, events or metrics sent or written.
            case sent(Int)
            /// It failed; `isNew` when the same problem was not said before.
            case failed(String, isNew: Bool)
        }
        public var target: ExportTarget
        public var result: Result
    }

    /// The exports as configured, with what their last attempts did.
    public func list() throws -> [(target: ExportTarget, record: ExportState.Record?)] {
        let state = try store.exportState()
        return (configuration.exports ?? []).map { ($0, state.records[$0.id]) }
    }

    /// The ID a new export of `kind` gets: the kind, or `kind-2`, `kind-3` (what `add` chooses
    /// again under the lock, where another command may have taken it meanwhile).
    public func nextID(_ kind: ExportTarget.Kind) -> String { Self.freeID(kind, in: configuration.exports ?? []) }

    static func freeID(_ kind: ExportTarget.Kind, in exports: [ExportTarget]) -> String {
        let taken = Set(exports.map(\.id))
        if !taken.contains(kind.rawValue) { return kind.rawValue }
        return (2...99).lazy.map { "\(kind.rawValue)-\($0)" }.first { !taken.contains($0) } ?? kind.rawValue
    }

    /// What makes `target` one too many among `exports`: their number, or another writing its file.
    static func conflict(_ target: ExportTarget, with exports: [ExportTarget]) -> ExportFailure? {
        guard exports.count < ExportTarget.largestCount else {
            return ExportFailure("there are \(ExportTarget.largestCount) exports already; remove one first", isUsersFault: true)
        }
        if target.kind.isFile, let other = exports.first(where: { $0.kind.isFile && $0.location == target.location }) {
            return ExportFailure("export \(other.id) writes \(target.shownLocation) already", isUsersFault: true)
        }
        return nil
    }

    /// Adds an export: it is published to now and must work; nothing is saved otherwise. Its ID is
    /// chosen under the lock it is saved under, so two commands at once never share one; the
    /// outcome names the export as saved.
    @discardableResult
    public func add(_ target: ExportTarget, client: any HTTPClient, timeout: TimeInterval) throws -> Outcome {
        if let conflict = Self.conflict(target, with: configuration.exports ?? []) { throw conflict }
        if target.kind.isFile {
            let directory = target.location.pathDirectory
            var info = stat()
            guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw ExportFailure("\(DisplayText.line(directory)) is not a directory", isUsersFault: true)
            }
            if target.kind == .prometheus, !target.location.hasSuffix(".prom") {
                throw ExportFailure("node_exporter's textfile collector reads only files ending in .prom: name it \(DisplayText.line(target.location.pathBaseName)).prom", isUsersFault: true)
            }
        }
        try store.checkPlanInputs()
        let content = try Content(commute: commute, kinds: [target.kind])
        var record = ExportState.Record()
        let result = publish(target, content: content, record: &record, client: client, timeout: timeout, force: true)
        if case .failed(let problem, _) = result { throw ExportFailure("export \(target.id) (\(target.shownLocation)): \(problem)") }
        let saved = try store.updateConfiguration { configuration in
            let exports = configuration.exports ?? []
            if let conflict = Self.conflict(target, with: exports) { throw conflict }
            var saved = target
            saved.id = Self.freeID(target.kind, in: exports)
            configuration.exports = exports + [saved]
            return saved
        }
        try store.update(ExportState.self) { state in state.records[saved.id] = record }
        return Outcome(target: saved, result: result)
    }

    /// The export called `id`; the failure names the others.
    public func target(_ id: String) throws(ExportFailure) -> ExportTarget {
        guard let target = configuration.exports?.first(where: { $0.id == id }) else {
            let known = (configuration.exports ?? []).map(\.id)
            throw ExportFailure(
                "no export '\(DisplayText.line(id))'" + (known.isEmpty ? "; add one with `traveltimes export add`" : " (there are: \(known.joined(separator: ", ")))"),
                isUsersFault: true)
        }
        return target
    }

    /// What `remove` did: the export, how much it cleared where it published, and why it could
    /// not clear (the export is removed all the same).
    public struct Removal: Sendable, Equatable {
        public var target: ExportTarget
        /// Sensors deleted from Home Assistant, retained messages emptied on the broker.
        public var cleared: Int
        public var problem: String?
    }

    /// Removes an export and what it remembers, and takes back what it published: a file it
    /// wrote is removed (a calendar or a collector would otherwise go on reading it as current),
    /// Home Assistant's sensors are deleted, the broker's retained messages (configs, states,
    /// attributes, availability) are emptied, so Home Assistant shows no frozen value as live.
    public func remove(_ id: String, client: any HTTPClient, timeout: TimeInterval) throws -> Removal {
        let target = try target(id)
        var removal = Removal(target: target, cleared: 0, problem: nil)
        // What it published, as the record of its last success says (an unreadable record: nothing known).
        let sent = (try? store.exportState())?.records[id]?.sent ?? [:]
        if !sent.isEmpty {
            switch target.kind.service.withdraw(target, previous: sent, client: client, timeout: timeout) {
            case .success(let done): removal.cleared = done.count
            case .failure(let failure): removal.problem = DisplayText.line(String(failure.message.prefix(300)))
            case nil: break
            }
        }
        try store.updateConfiguration { configuration in
            configuration.exports = (configuration.exports ?? []).filter { $0.id != id }
            if configuration.exports?.isEmpty == true { configuration.exports = nil }
        }
        try store.update(ExportState.self) { state in state.records[id] = nil }
        if target.kind.isFile { unlink(target.location) }
        return removal
    }

    /// Publishes to every export what changed since it last succeeded; an export whose last
    /// attempt failed is tried again. Nothing is sent or written for an export where nothing
    /// changed, and `exports.json` is written only when a record changes.
    public func publish(client: any HTTPClient, timeout: TimeInterval) throws -> [Outcome] {
        try publish(configuration.exports ?? [], client: client, timeout: timeout)
    }

    /// How long `tick` leaves an export that failed alone: a Home Assistant or a broker that hangs
    /// costs one tick its timeout every five minutes, not every tick (refresh tries it each run).
    public static let tickRest: TimeInterval = 5 * 60

    /// What `tick` publishes: every export but one that failed within `tickRest`.
    public func publishFromTick(client: any HTTPClient, timeout: TimeInterval) throws -> [Outcome] {
        let records = (try? store.exportState().records) ?? [:]
        let due = (configuration.exports ?? []).filter { !isResting(records[$0.id]) }
        return try publish(due, client: client, timeout: timeout)
    }

    /// What a tick sends: the exports hear of a tick that changed something (an alert sent,
    /// missed or held back, or the alerts re-planned), or one that may retry a failure; a tick that
    /// changed nothing sends and writes nothing. `client` is made only when something is sent.
    public func publishAfterTick(_ report: Alerts.TickReport, client: () -> any HTTPClient, timeout: TimeInterval = 5) throws -> [Outcome] {
        guard !(configuration.exports ?? []).isEmpty, !report.isEmpty || report.rescheduled != nil || !report.tending.followed.isEmpty || hasFailure()
        else { return [] }
        return try publishFromTick(client: client(), timeout: timeout)
    }

    /// The failures that are news: each said once, when it starts or changes.
    public static func newFailures(_ outcomes: [Outcome]) -> [(target: ExportTarget, problem: String)] {
        outcomes.compactMap { outcome in
            if case .failed(let problem, isNew: true) = outcome.result { (outcome.target, problem) } else { nil }
        }
    }

    /// Whether an export failed within `tickRest`.
    func isResting(_ record: ExportState.Record?) -> Bool {
        guard let record, record.problem != nil, let attempt = record.lastAttemptAt, attempt <= now else { return false }
        return now.timeIntervalSince(attempt) < Self.tickRest
    }

    /// Writes the file exports (iCalendar, Prometheus) whose content changed, and nothing else:
    /// what every command that re-plans does, so that a calendar reading the file shows a schedule
    /// added now, not at the next refresh. No network; a failure is the next refresh's or tick's
    /// to say.
    public func writeFiles() {
        let files = (configuration.exports ?? []).filter(\.kind.isFile)
        guard !files.isEmpty else { return }
        _ = try? publish(files, client: Offline(), timeout: 0)
    }

    /// A client for what never goes on the network.
    private struct Offline: HTTPClient {
        func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
            throw HTTPClientError.connection("not on the network")
        }
        func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
            throw HTTPClientError.connection("not on the network")
        }
    }

    private func publish(_ targets: [ExportTarget], client: any HTTPClient, timeout: TimeInterval) throws -> [Outcome] {
        guard !targets.isEmpty else { return [] }
        let content = try Content(commute: commute, kinds: Set(targets.map(\.kind)))
        let recorded = try store.exportState().records
        var records = recorded
        var outcomes: [Outcome] = []
        for target in targets {
            var record = records[target.id] ?? ExportState.Record()
            let result = publish(target, content: content, record: &record, client: client, timeout: timeout, force: false)
            records[target.id] = record
            outcomes.append(Outcome(target: target, result: result))
        }
        // Nothing sent, nothing failed anew: not even exports.json is written (or locked).
        guard targets.contains(where: { records[$0.id] != recorded[$0.id] }) else { return outcomes }
        let changed = records
        try store.update(ExportState.self) { state in
            for target in targets { state.records[target.id] = changed[target.id] }
        }
        return outcomes
    }

    /// Whether any export's last attempt failed, and it has rested since (a tick that changed
    /// nothing tries it again).
    public func hasFailure() -> Bool {
        guard configuration.exports?.isEmpty == false, let state = try? store.exportState() else { return false }
        return state.records.values.contains { $0.problem != nil && !isResting($0) }
    }

    // MARK: One export

    private func publish(
        _ target: ExportTarget, content: Content, record: inout ExportState.Record, client: any HTTPClient, timeout: TimeInterval, force: Bool
    ) -> Outcome.Result {
        let previous = force ? [:] : record.sent ?? [:]
        switch target.kind.service.publish(target, content, previous: previous, client: client, timeout: timeout, force: force) {
        case .success(let done):
            let wasFailing = record.problem != nil
            record.problem = nil
            record.problemTold = nil
            if done.count > 0 || wasFailing || force {
                record.lastSuccessAt = now
                record.lastAttemptAt = now
            }
            record.sent = done.sent.isEmpty ? nil : done.sent
            return done.count > 0 ? .sent(done.count) : .unchanged
        case .failure(let failure):
            let problem = DisplayText.line(String(failure.message.prefix(300)))
            let isNew = record.problem != problem || record.problemTold != true
            record.lastAttemptAt = now
            record.problem = problem
            record.problemTold = true
            return .failed(problem, isNew: isNew)
        }
    }
}
