import Basics
import FoundationEssentials

/// A route as a Home Assistant sensor: its object ID (`traveltimes_home_work`), and the state and
/// attributes both the REST API and MQTT discovery carry.
public struct HomeAssistantSensor: Sendable, Equatable {
    /// `traveltimes_<slug>`: lower-case letters, digits and single underscores, as Home
    /// Assistant's entity IDs must be.
    public var objectID: String
    public var routeID: RouteID
    public var name: String
    /// Minutes now; nil when the route has no reading (the state is then `unknown`).
    public var minutes: Int?
    public var typical: Int?
    /// `CLEAR`, `SLOWING`, `CONGESTED`, `NO DATA`, `ESTIMATE`.
    public var status: String
    /// When the reading was measured, and the next planned leave time on the route (ISO 8601).
    public var updated: String
    public var nextLeave: String?
    /// The transit trip a leave alert named on this route, while it is followed: its line, when
    /// it leaves the stop and arrives, when to leave the door, and what the last follow-up said.
    /// Sent only then (the attribute is absent otherwise).
    public var followedTrip: FollowedTripState?
    /// For a route that is a way of a commute: the commute's best way now. Sent only then.
    public var bestWay: BestWay?
    /// For a route an arrive-by schedule takes: how often its planned leave time arrived on time
    /// over the recorded days. Sent only then.
    public var onTime: OnTime?

    public struct BestWay: Sendable, Equatable {
        public var commute: String
        public var routeID: RouteID
        public var name: String
        public var marginMinutes: Int?

        public init(commute: String, routeID: RouteID, name: String, marginMinutes: Int?) {
            self.commute = commute
            self.routeID = routeID
            self.name = name
            self.marginMinutes = marginMinutes
        }
    }

    public struct OnTime: Sendable, Equatable {
        public var schedule: String
        public var onTime: Int
        public var days: Int

        public init(schedule: String, onTime: Int, days: Int) {
            self.schedule = schedule
            self.onTime = onTime
            self.days = days
        }
    }

    public struct FollowedTripState: Sendable, Equatable {
        public var line: String
        public var leavesStop: String
        public var arrives: String
        public var leaveDoor: String
        public var update: String?
        public var stopped: String?

        public init(line: String, leavesStop: String, arrives: String, leaveDoor: String, update: String?, stopped: String?) {
            self.line = line
            self.leavesStop = leavesStop
            self.arrives = arrives
            self.leaveDoor = leaveDoor
            self.update = update
            self.stopped = stopped
        }
    }

    public init(objectID: String, routeID: RouteID, name: String, minutes: Int?, typical: Int?, status: String, updated: String, nextLeave: String?) {
        self.objectID = objectID
        self.routeID = routeID
        self.name = name
        self.minutes = minutes
        self.typical = typical
        self.status = status
        self.updated = updated
        self.nextLeave = nextLeave
    }

    public var entityID: String { "sensor.\(objectID)" }

    /// The state as text (Home Assistant keeps states as text): the minutes, or `unknown`.
    public var state: String { minutes.map(String.init) ?? "unknown" }

    /// Object IDs for routes in order: each route's ID lower-cased, every run of other characters
    /// one underscore, no underscore at either end; a clash gets `_2`, `_3`.
    public static func objectIDs(for routeIDs: [RouteID]) -> [String] {
        var taken = Set<String>()
        return routeIDs.map { id in
            var slug = ""
            for scalar in id.rawValue.lowercased().unicodeScalars {
                if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                    slug.unicodeScalars.append(scalar)
                } else if !slug.isEmpty, slug.last != "_" {
                    slug += "_"
                }
            }
            while slug.hasSuffix("_") { slug.removeLast() }
            var objectID = "traveltimes_" + (slug.isEmpty ? "route" : slug)
            var suffix = 2
            let base = objectID
            while !taken.insert(objectID).inserted {
                objectID = "\(base)_\(suffix)"
                suffix += 1
            }
            return objectID
        }
    }

    /// The attributes object: unit, device class, name, typical, status, updated, next leave, and
    /// the followed trip while there is one.
    public func attributes(into json: inout JSONWriter) {
        json.beginObject()
        json.key("unit_of_measurement")
        json.string("min")
        json.key("device_class")
        json.string("duration")
        json.key("friendly_name")
        json.string(name)
        json.key("route")
        json.string(routeID.rawValue)
        json.key("typical")
        json.int(typical)
        json.key("status")
        json.string(status)
        json.key("updated")
        json.string(updated)
        json.key("next_leave")
        json.string(nextLeave)
        if let trip = followedTrip {
            json.key("followed_trip")
            json.beginObject()
            json.key("line")
            json.string(trip.line)
            json.key("leaves_stop")
            json.string(trip.leavesStop)
            json.key("arrives")
            json.string(trip.arrives)
            json.key("leave_door")
            json.string(trip.leaveDoor)
            json.key("update")
            json.string(trip.update)
            json.key("stopped")
            json.string(trip.stopped)
            json.endObject()
        }
        if let bestWay {
            json.key("best_way")
            json.beginObject()
            json.key("commute")
            json.string(bestWay.commute)
            json.key("route")
            json.string(bestWay.routeID.rawValue)
            json.key("name")
            json.string(bestWay.name)
            json.key("margin_minutes")
            json.int(bestWay.marginMinutes)
            json.endObject()
        }
        if let onTime {
            json.key("on_time")
            json.beginObject()
            json.key("schedule")
            json.string(onTime.schedule)
            json.key("on_time")
            json.int(onTime.onTime)
            json.key("days")
            json.int(onTime.days)
            json.endObject()
        }
        json.endObject()
    }

    /// The device every sensor published under `prefix` belongs to: `traveltimes_<prefix>`.
    public static func deviceID(prefix: String) -> String {
        "traveltimes_" + String(prefix.unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) || ("A"..."Z").contains($0) ? Character($0) : "_" })
    }

    /// The REST API's body: `{"state": …, "attributes": {…}}`.
    public var restBody: Data {
        var json = JSONWriter()
        json.beginObject()
        json.key("state")
        json.string(state)
        json.key("attributes")
        attributes(into: &json)
        json.endObject()
        return Data(json.bytes)
    }

    /// The attributes alone, for MQTT's `json_attributes_topic`.
    public var attributesBody: Data {
        var json = JSONWriter()
        attributes(into: &json)
        return Data(json.bytes)
    }

    /// The MQTT discovery config (retained at `homeassistant/sensor/<object_id>/config`). Home
    /// Assistant names the entity by `default_entity_id` (since 2025.10; `object_id`, which older
    /// versions read, is ignored from 2026.4), so it is `sensor.traveltimes_<route>` as the REST
    /// export names it; its availability is the prefix's `status` (`online`, or `offline` when
    /// the session drops: the last will); the `device` groups the sensors of one prefix.
    public func discoveryConfig(prefix: String, version: String) -> Data {
        var json = JSONWriter()
        json.beginObject()
        json.key("name")
        json.string(name)
        json.key("unique_id")
        json.string(objectID)
        json.key("default_entity_id")
        json.string(entityID)
        json.key("object_id")
        json.string(objectID)
        json.key("state_topic")
        json.string("\(prefix)/\(objectID)/state")
        json.key("json_attributes_topic")
        json.string("\(prefix)/\(objectID)/attributes")
        json.key("unit_of_measurement")
        json.string("min")
        json.key("device_class")
        json.string("duration")
        json.key("availability_topic")
        json.string("\(prefix)/status")
        json.key("payload_available")
        json.string("online")
        json.key("payload_not_available")
        json.string("offline")
        json.key("device")
        json.beginObject()
        json.key("identifiers")
        json.beginArray()
        json.string(Self.deviceID(prefix: prefix))
        json.endArray()
        json.key("name")
        json.string("traveltimes")
        json.key("manufacturer")
        json.string("traveltimes")
        json.key("model")
        json.string("Commute travel times")
        json.key("sw_version")
        json.string(version)
        json.endObject()
        json.key("origin")
        json.beginObject()
        json.key("name")
        json.string("traveltimes")
        json.key("sw_version")
        json.string(version)
        json.endObject()
        json.endObject()
        return Data(json.bytes)
    }
}
