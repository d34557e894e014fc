@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// The protobuf reader against the official GTFS-realtime bindings (Python's
/// `gtfs-realtime-bindings`, driven by `Tests/Support/transit_oracle.py`): a feed the bindings
/// write, and every bundled realtime fixture (written by the hand encoder), read by both, say the
/// same in every field traveltimes reads. Skipped, and says so, where the bindings are missing;
/// `.ci/run` installs them.
@Suite(.ownThreads) struct TransitOracleTests {
    static let oracle = Paths.root.appendingPathComponent("Tests/Support/transit_oracle.py").path

    @Test(ExternalTool.gtfsRealtimeBindings.needed) func theOfficialBindingsReadEveryFeedAsTraveltimesDoes() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("oracle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let environment = ProcessInfo.processInfo.environment
        let written = scratch + "/bindings.pb"
        let encoded = try execute(["python3", Self.oracle, "encode", written], environment: environment)
        #expect(encoded.status == 0, "\(encoded)")
        for path in [written, Paths.transit("realtime-0715.pb"), Paths.transit("realtime-0730.pb"), Paths.transit("alerts.pb")] {
            let said = try execute(["python3", Self.oracle, "decode", path], environment: environment)
            #expect(said.status == 0, "\(said)")
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(said.stdout.utf8)) as? [String: Any])
            let decoded = try GTFSRealtime(decoding: try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(Self.shown(expected) == Self.json(decoded), "\((path as NSString).lastPathComponent)")
        }
        // The bindings' feed as traveltimes reads it: negative delays (ten-byte varints), the
        // English header of two translations, the vehicle position skipped.
        let feed = try GTFSRealtime(decoding: try Data(contentsOf: URL(fileURLWithPath: written)))
        #expect(feed.tripUpdates.count == 2 && feed.alerts.count == 1 && feed.timestamp == 1_894_720_200)
        #expect(feed.tripUpdates[0].stopTimeUpdates[0].arrival?.delay == -60 && feed.tripUpdates[1].relationship == .canceled)
        #expect(feed.alerts[0].header == "545 detoured")
    }

    /// The oracle's JSON with text made displayable, as traveltimes keeps it.
    static func shown(_ oracle: [String: Any]) -> NSDictionary {
        var copy = oracle
        copy["alerts"] = (oracle["alerts"] as? [[String: Any]] ?? []).map { alert in
            var alert = alert
            for key in ["header", "description"] { if let text = alert[key] as? String { alert[key] = DisplayText.line(text) } }
            return alert
        }
        return copy as NSDictionary
    }

    /// What traveltimes decoded, in the oracle's shape.
    static func json(_ feed: GTFSRealtime) -> NSDictionary {
        func value(_ optional: Any?) -> Any { optional ?? NSNull() }
        func event(_ event: GTFSRealtime.StopTimeEvent?) -> Any {
            event.map { ["delay": value($0.delay), "time": value($0.time)] as [String: Any] } ?? NSNull()
        }
        let updates: [[String: Any]] = feed.tripUpdates.map { update in
            [
                "trip": value(update.tripID), "route": value(update.routeID), "startTime": value(update.startTime),
                "startDate": value(update.startDate), "relationship": update.relationship.rawValue, "delay": value(update.delay),
                "stops": update.stopTimeUpdates.map { stop in
                    [
                        "sequence": value(stop.stopSequence), "stop": value(stop.stopID), "arrival": event(stop.arrival),
                        "departure": event(stop.departure), "relationship": stop.relationship.rawValue,
                    ] as [String: Any]
                },
            ]
        }
        let alerts: [[String: Any]] = feed.alerts.map { alert in
            [
                "routes": alert.routeIDs, "stops": alert.stopIDs, "trips": alert.tripIDs,
                "periods": alert.periods.map { [value($0.start), value($0.end)] }, "header": value(alert.header),
                "description": value(alert.description), "effect": value(alert.effect),
            ]
        }
        return ["timestamp": value(feed.timestamp), "tripUpdates": updates, "alerts": alerts] as NSDictionary
    }
}
