import Basics
@_spi(Store) import CommuteStore
import FoundationEssentials

/// One kind of export, in a file of its own under `Services/`: how `export add` takes its place,
/// how a saved one is checked and shown, what it publishes and how it takes that back, and the
/// words `export add` and `export remove` say of it. `ExportTarget.Kind.service` names each
/// kind's; a new kind is its file, its case in `ExportTarget.Kind` and its line there.
protocol ExportService {
    /// Reads the place `export add KIND PLACE` was given: the location to keep, or why not.
    static func location(of place: String, currentDirectory: String) throws(ExportFailure) -> String
    /// Whether it takes a token (`--token -`, on standard input).
    static var takesToken: Bool { get }
    /// What `export add KIND` takes after its kind: `URL --token -`, `FILE`.
    static var form: String { get }
    /// What it publishes, as `export add --help` says it after its form: lines of at most 88
    /// characters, all but the first indented four spaces.
    static var help: [String] { get }
    /// Checks a saved export of this kind.
    static func validate(_ target: ExportTarget, field: String) throws(DocumentProblem)
    /// Where it goes, as it may be shown: never a user, password or token.
    static func shownLocation(of target: ExportTarget) -> String
    /// Sends (or writes) what changed since `previous` (digests by key), everything when `force`.
    static func publish(
        _ target: ExportTarget, _ content: Exports.Content, previous: [String: String], client: any HTTPClient, timeout: TimeInterval, force: Bool
    ) -> Result<Exports.Delivered, ExportFailure>
    /// Takes back what it published (`previous`); nil where nothing is out there but its file,
    /// which `remove` deletes.
    static func withdraw(_ target: ExportTarget, previous: [String: String], client: any HTTPClient, timeout: TimeInterval) -> Result<Exports.Delivered, ExportFailure>?
    /// What `export add` says it did with `count` sent.
    static func added(_ count: Int) -> String
    /// What `export remove` says it will do, and what it did with `cleared` taken back.
    static func removing(_ target: ExportTarget) -> String
    static func removed(_ target: ExportTarget, cleared: Int) -> String
    /// What stays where it published when it could not be taken back.
    static var leftBehind: String { get }
}

extension ExportService {
    static var takesToken: Bool { false }
}

extension Exports {
    /// What one publishing did: how many sensors, messages or files went out, and the digest of
    /// each thing now out there, by its key (an entity ID, a topic).
    typealias Delivered = (count: Int, sent: [String: String])
}

/// An export that is a file (iCalendar, Prometheus): a full path, written whole when its bytes
/// differ, removed with the export. A kind of it says only which content it writes.
protocol FileExport: ExportService {
    /// What it writes.
    static var content: KeyPath<Exports.Content, Data> { get }
}

extension FileExport {
    static func location(of place: String, currentDirectory: String) throws(ExportFailure) -> String {
        guard !place.isEmpty, !place.hasSuffix("/"), DisplayText.line(place) == place else {
            throw ExportFailure("Invalid file '\(DisplayText.line(place))': give the path of the file to write.", isUsersFault: true)
        }
        // A relative path is kept as a full one: timers and cron run in another directory.
        return place.hasPrefix("/")
            ? place
            : URL(fileURLWithPath: place, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true)).standardizedFileURL.path
    }

    static func validate(_ target: ExportTarget, field: String) throws(DocumentProblem) {
        try DocumentProblem.check(target.location.hasPrefix("/"), "\(field).location is not a full path")
    }

    static func shownLocation(of target: ExportTarget) -> String { DisplayText.line(target.location) }

    /// Writes the file when its bytes differ from what is there (or it is gone); mode 0644, so a
    /// collector or a web server running as another user can read it.
    static func publish(
        _ target: ExportTarget, _ content: Exports.Content, previous: [String: String], client: any HTTPClient, timeout: TimeInterval, force: Bool
    ) -> Result<Exports.Delivered, ExportFailure> {
        let data = content[keyPath: Self.content]
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

    /// Nothing is out there but the file, which `remove` deletes.
    static func withdraw(_ target: ExportTarget, previous: [String: String], client: any HTTPClient, timeout: TimeInterval) -> Result<Exports.Delivered, ExportFailure>? {
        nil
    }

    static func added(_ count: Int) -> String { "written" }
    static func removing(_ target: ExportTarget) -> String { "its file \(target.shownLocation) is removed" }
    static func removed(_ target: ExportTarget, cleared: Int) -> String { "; removed \(target.shownLocation)" }
    static var leftBehind: String { "its file stays" }
}

extension ExportTarget.Kind {
    /// The kind's own file: the one list of export kinds.
    var service: any ExportService.Type {
        switch self {
        case .homeassistant: HomeAssistantExport.self
        case .mqtt: MQTTExport.self
        case .ics: ICalendarExport.self
        case .prometheus: PrometheusExport.self
        }
    }

    /// Reads the place `export add` was given (a relative path against `currentDirectory`).
    public func location(of place: String, currentDirectory: String) throws(ExportFailure) -> String {
        try service.location(of: place, currentDirectory: currentDirectory)
    }

    /// Whether it takes a token (`--token -`).
    public var takesToken: Bool { service.takesToken }
    /// What `export add KIND` takes after its kind.
    public var form: String { service.form }
    /// What it publishes, in lines: its form first, then what `help` says.
    public var help: [String] {
        let head = "\(rawValue) \(form)"
        let first = head + String(repeating: " ", count: max(3, 18 - head.count)) + (service.help.first ?? "")
        return [first] + service.help.dropFirst()
    }
    /// What it publishes, in one line.
    public var summary: String { service.help.map { $0.trimmingWhitespace() }.joined(separator: " ") }
    /// What `export add` says it did with `count` sent.
    public func added(_ count: Int) -> String { service.added(count) }
    /// What `export remove` says it will do.
    public func removing(_ target: ExportTarget) -> String { service.removing(target) }
    /// What `export remove` did, `cleared` taken back.
    public func removed(_ target: ExportTarget, cleared: Int) -> String { service.removed(target, cleared: cleared) }
    /// What stays where it published when it could not be taken back.
    public var leftBehind: String { service.leftBehind }
}
