import Foundation
import Testing

/// A program outside the Swift toolchain and python3 that some tests drive. On a machine without
/// it, such a test is skipped and says which tool is missing and how to install it, so the
/// README's test command passes with the toolchain and python3 alone. `.ci/run` installs every
/// one and sets `TRAVELTIMES_REQUIRE_TOOLS=1`, under which nothing is skipped: a missing tool then
/// fails the tests that need it.
enum ExternalTool: String, CaseIterable {
    case zsh, fish, groff, man
    case bashCompletion = "bash-completion"
    case gnuTime = "GNU time"
    case systemdAnalyze = "systemd-analyze"
    /// Python's official GTFS-realtime bindings, from PyPI: the oracle for the protobuf reader.
    case gtfsRealtimeBindings = "gtfs-realtime-bindings"
    /// Python's icalendar with recurring_ical_events, from PyPI: the oracle for calendars.
    case recurringICalEvents = "recurring_ical_events"
    /// Prometheus's Python client, from PyPI: the oracle for the textfile export.
    case prometheusClient = "prometheus_client"
    /// Debian's MQTT broker and its clients: the real broker the MQTT export publishes to.
    case mosquitto
    /// Apprise, from PyPI: the oracle for what a notifier URL means.
    case apprise
    /// Prometheus's own checker (Debian's prometheus package): the export's names and units.
    case promtool
    /// gtfs-kit, from PyPI: the oracle for which trips serve two stops on a day.
    case gtfsKit = "gtfs-kit"

    /// Whether this machine has it.
    var isInstalled: Bool {
        switch self {
        case .bashCompletion: FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion")
        case .gnuTime: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        case .systemdAnalyze: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")
        case .zsh, .fish, .groff, .man: Self.onPath(rawValue)
        case .gtfsRealtimeBindings: Self.hasBindings
        case .recurringICalEvents: Self.imports("import icalendar, recurring_ical_events")
        case .prometheusClient: Self.imports("import prometheus_client.parser")
        case .apprise: Self.imports("import apprise, requests")
        case .mosquitto: FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") && Self.onPath("mosquitto_sub")
        case .promtool: Self.onPath("promtool")
        case .gtfsKit: Self.imports("import gtfs_kit")
        }
    }

    /// The Debian package that brings it.
    var package: String {
        switch self {
        case .bashCompletion: "bash-completion"
        case .gnuTime: "time"
        case .systemdAnalyze: "systemd"
        case .man: "man-db"
        case .zsh, .fish, .groff, .gtfsRealtimeBindings: rawValue
        case .recurringICalEvents: "icalendar recurring_ical_events"
        case .prometheusClient: "prometheus_client"
        case .apprise: "apprise"
        case .mosquitto: "mosquitto mosquitto-clients"
        case .promtool: "prometheus"
        case .gtfsKit: "gtfs-kit"
        }
    }

    /// How to install it.
    var installation: String {
        [.gtfsRealtimeBindings, .recurringICalEvents, .prometheusClient, .apprise, .gtfsKit].contains(self) ? "python3 -m pip install \(package)" : "apt-get install \(package)"
    }

    /// Set by `.ci/run`: every tool must be there.
    static var required: Bool { ProcessInfo.processInfo.environment["TRAVELTIMES_REQUIRE_TOOLS"] == "1" }

    /// The trait of a test that needs this tool.
    var needed: ConditionTrait {
        .enabled(
            if: isInstalled || Self.required,
            "needs \(rawValue), which is not installed (\(installation)); .ci/run installs it")
    }

    /// Whether python3 can import the bindings: asked once.
    private static let hasBindings: Bool = imports("import google.transit.gtfs_realtime_pb2")

    /// Whether python3 runs `statement` (an import).
    private static func imports(_ statement: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", statement]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    private static func onPath(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}
