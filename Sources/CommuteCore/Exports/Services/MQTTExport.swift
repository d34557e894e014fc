import Basics
import CommuteDelivery
import CommuteModel
import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// An MQTT broker (`export add mqtt mqtt://…`), with Home Assistant's discovery: each favorite a
/// sensor, its config, state and attributes retained.
enum MQTTExport: ExportService {
    static let form = "mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX]"
    static let help = [
        "an MQTT 3.1.1 broker: Home",
        "    Assistant discovery (retained homeassistant/sensor/traveltimes_<route>/config),",
        "    the state and attributes retained under PREFIX (traveltimes), PREFIX/status",
        "    online. Plain TCP (port 1883); mqtts:// is not supported.",
    ]

    static func location(of place: String, currentDirectory: String) throws(ExportFailure) -> String {
        if place.lowercased().hasPrefix("mqtts://") {
            throw ExportFailure("mqtts:// (TLS) is not supported: use mqtt:// to a broker on this machine or a trusted network.", isUsersFault: true)
        }
        guard MQTTBroker(place) != nil else {
            throw ExportFailure(
                "Invalid broker URL: use mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX], such as mqtt://localhost or mqtt://ha:secret@10.0.0.5:1883/commute.",
                isUsersFault: true)
        }
        return place
    }

    static func validate(_ target: ExportTarget, field: String) throws(DocumentProblem) {
        try DocumentProblem.check(MQTTBroker(target.location) != nil, "\(field).location is not an mqtt:// URL")
    }

    static func shownLocation(of target: ExportTarget) -> String {
        guard let broker = MQTTBroker(target.location) else { return "?" }
        return "mqtt://\(broker.host):\(broker.port)/\(broker.prefix)"
    }

    static func publish(
        _ target: ExportTarget, _ content: Exports.Content, previous: [String: String], client: any HTTPClient, timeout: TimeInterval, force: Bool
    ) -> Result<Exports.Delivered, ExportFailure> {
        publishMQTT(target, content.sensors, previous: previous, timeout: timeout)
    }

    /// Every topic it published, emptied, the availability too.
    static func withdraw(_ target: ExportTarget, previous: [String: String], client: any HTTPClient, timeout: TimeInterval) -> Result<Exports.Delivered, ExportFailure>? {
        publishMQTT(target, [], previous: previous, timeout: timeout, removing: true)
    }

    static func added(_ count: Int) -> String { "\(count) retained message\(count == 1 ? "" : "s") published" }
    static func removing(_ target: ExportTarget) -> String { "its retained messages are emptied on the broker" }
    static func removed(_ target: ExportTarget, cleared: Int) -> String {
        cleared > 0 ? "; emptied \(cleared) retained message\(cleared == 1 ? "" : "s")" : ""
    }
    static let leftBehind = "its retained messages stay on the broker"

    /// Publishes, retained, each discovery config, state and attributes, and the availability,
    /// when any of them changed; a favorite removed has its topics cleared (an empty retained
    /// message). Nothing changed: no connection at all. The session's last will makes the
    /// availability `offline` should it drop half way. `removing`: every topic published before
    /// is cleared, the availability too.
    static func publishMQTT(
        _ target: ExportTarget, _ sensors: [HomeAssistantSensor], previous: [String: String], timeout: TimeInterval, removing: Bool = false
    ) -> Result<Exports.Delivered, ExportFailure> {
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
