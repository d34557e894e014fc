import Basics
import CommuteDelivery
import CommuteModel
import CommuteStore
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
            let cleared: Result<(count: Int, sent: [String: String]), ExportFailure>? = switch target.kind {
            case .homeassistant: postStates(target, [], previous: sent, client: client, timeout: timeout)
            case .mqtt: publishMQTT(target, [], previous: sent, timeout: timeout, removing: true)
            case .ics, .prometheus: nil
            }
            switch cleared {
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
        guard !(configuration.exports ?? []).isEmpty, !report.isEmpty || report.rescheduled != nil || hasFailure() else { return [] }
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
        let attempt: Result<(count: Int, sent: [String: String]), ExportFailure>
        switch target.kind {
        case .ics: attempt = writeFile(target, content.calendar, force: force)
        case .prometheus: attempt = writeFile(target, content.metrics, force: force)
        case .homeassistant: attempt = postStates(target, content.sensors, previous: previous, client: client, timeout: timeout)
        case .mqtt: attempt = publishMQTT(target, content.sensors, previous: previous, timeout: timeout)
        }
        switch attempt {
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

    /// Writes the file when its bytes differ from what is there (or it is gone); mode 0644, so a
    /// collector or a web server running as another user can read it.
    private func writeFile(_ target: ExportTarget, _ data: Data, force: Bool) -> Result<(count: Int, sent: [String: String]), ExportFailure> {
        if !force, let current = try? RegularFile.read(target.location, maximumSize: 64 << 20), current == data {
            return .success((0, [:]))
        }
        do {
            try AtomicFile.write(data, to: target.location, mode: 0o644)
            return .success((1, [:]))
        } catch {
            return .failure(ExportFailure("cannot write \(DisplayText.line(target.location)): \(error)"))
        }
    }

    /// POSTs each sensor whose state or attributes changed to `/api/states/<entity_id>`; a sensor
    /// no longer among the favorites is deleted.
    private func postStates(
        _ target: ExportTarget, _ sensors: [HomeAssistantSensor], previous: [String: String], client: any HTTPClient, timeout: TimeInterval
    ) -> Result<(count: Int, sent: [String: String]), ExportFailure> {
        guard let base = ExportTarget.homeAssistantURL(target.location), let token = target.token else {
            return .failure(ExportFailure("the URL or the token is missing"))
        }
        var sent: [String: String] = [:]
        var count = 0
        let headers = ["Authorization": "Bearer \(token)", "Content-Type": "application/json", "Accept": "application/json"]
        let deadline = Date().addingTimeInterval(timeout)
        /// One request to `/api/` + `path` (a state's, or the API's root); nil when it succeeded.
        func request(_ method: String, _ path: String, _ body: Data?) -> ExportFailure? {
            guard let url = URL(string: "\(base.absoluteString)/api/\(path)") else { return ExportFailure("\(path) makes no URL") }
            do {
                let response = try client.send(method, url, headers: headers, body: body, timeout: max(0.5, deadline.timeIntervalSinceNow))
                switch response.status {
                case 200, 201:
                    // Home Assistant answers with JSON (the state, or "API running."): a web page
                    // is something in front of it — a login page, a proxy — that took nothing.
                    guard method == "DELETE" || (JSONReader.any(response.body) as? [String: Any]).map({ path.isEmpty ? $0["message"] != nil : $0["entity_id"] != nil }) == true else {
                        let what = (response.headers["content-type"] ?? "").lowercased().contains("html") ? "a web page" : "something that is not its API's JSON"
                        return ExportFailure("\(target.shownLocation) answered with \(what), not Home Assistant's API (a login page or a proxy in front of it?): give the address Home Assistant itself answers at")
                    }
                    return nil
                case 404 where method == "DELETE": return nil
                case 401, 403:
                    return ExportFailure("Home Assistant refused the token (HTTP \(response.status)): make a long-lived access token for an administrator on your profile page")
                case 400: return ExportFailure("Home Assistant refused \(path.dropFirst("states/".count)) (HTTP 400)")
                default: return ExportFailure("Home Assistant answered HTTP \(response.status)")
                }
            } catch {
                if let error = error as? HTTPClientError { return ExportFailure("\(error)") }
                return ExportFailure(systemReason(error))
            }
        }
        // With no favorite to post, a first export still proves the address and the token: the
        // API's root answers 200 ("API running.") to a token it takes.
        if previous.isEmpty, sensors.isEmpty, let failure = request("GET", "", nil) { return .failure(failure) }
        for sensor in sensors {
            let body = sensor.restBody
            let digest = ExportState.digest(body)
            sent[sensor.entityID] = digest
            if previous[sensor.entityID] == digest { continue }
            if let failure = request("POST", "states/\(sensor.entityID)", body) { return .failure(failure) }
            count += 1
        }
        for entity in previous.keys.sorted() where sent[entity] == nil {
            if let failure = request("DELETE", "states/\(entity)", nil) { return .failure(failure) }
            count += 1
        }
        return .success((count, sent))
    }

    /// Publishes, retained, each discovery config, state and attributes, and the availability,
    /// when any of them changed; a favorite removed has its topics cleared (an empty retained
    /// message). Nothing changed: no connection at all. The session's last will makes the
    /// availability `offline` should it drop half way. `removing`: every topic published before
    /// is cleared, the availability too.
    private func publishMQTT(
        _ target: ExportTarget, _ sensors: [HomeAssistantSensor], previous: [String: String], timeout: TimeInterval, removing: Bool = false
    ) -> Result<(count: Int, sent: [String: String]), ExportFailure> {
        guard let broker = MQTTBroker(target.location) else { return .failure(ExportFailure("the broker URL is not an mqtt:// URL")) }
        var messages: [MQTTPacket.Message] = []
        var sent: [String: String] = [:]
        var changed = false
        func add(_ topic: String, _ payload: Data) {
            let digest = ExportState.digest(payload)
            sent[topic] = digest
            changed = changed || previous[topic] != digest
            messages.append(MQTTPacket.Message(topic: topic, payload: payload))
        }
        for sensor in sensors {
            add("homeassistant/sensor/\(sensor.objectID)/config", sensor.discoveryConfig(prefix: broker.prefix, version: Product.version))
        }
        let status = "\(broker.prefix)/status"
        if !removing { add(status, Data("online".utf8)) }
        for sensor in sensors {
            add("\(broker.prefix)/\(sensor.objectID)/state", Data((sensor.minutes.map(String.init) ?? "None").utf8))
            add("\(broker.prefix)/\(sensor.objectID)/attributes", sensor.attributesBody)
        }
        for topic in previous.keys.sorted() where sent[topic] == nil {
            changed = true
            messages.append(MQTTPacket.Message(topic: topic, payload: Data()))
        }
        // Nothing changed: no connection. Something did: every retained message again, so a
        // broker that forgot them (restarted without persistence) has them all back.
        guard changed else { return .success((0, sent)) }
        let session = MQTTSession(
            host: broker.host, port: broker.port, user: broker.user, password: broker.password, clientID: "traveltimes\(getpid())",
            will: removing ? nil : MQTTPacket.Message(topic: status, payload: Data("offline".utf8)))
        do {
            try session.publish(messages, timeout: timeout)
        } catch {
            return .failure(ExportFailure(error.message))
        }
        return .success((messages.count, sent))
    }
}
