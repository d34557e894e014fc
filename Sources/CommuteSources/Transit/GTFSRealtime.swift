import Basics
import FoundationEssentials

/// What a GTFS-realtime feed says, decoded from its protocol buffer (`gtfs-realtime.proto`, by
/// field number): trip updates with their stop-time updates, and service alerts. Fields not used
/// are skipped; times outside the years 1970–9999 count as absent; every list is bounded.
public struct GTFSRealtime: Sendable, Equatable {
    public struct StopTimeEvent: Sendable, Equatable {
        public var delay: Int?
        /// Seconds since 1970.
        public var time: Int?
    }

    public struct StopTimeUpdate: Sendable, Equatable {
        public enum Relationship: Int, Sendable { case scheduled = 0, skipped = 1, noData = 2, unscheduled = 3 }
        public var stopSequence: Int?
        public var stopID: String?
        public var arrival: StopTimeEvent?
        public var departure: StopTimeEvent?
        public var relationship: Relationship = .scheduled
    }

    public struct TripUpdate: Sendable, Equatable {
        public enum Relationship: Int, Sendable {
            case scheduled = 0, added = 1, unscheduled = 2, canceled = 3, replacement = 5, duplicated = 6, deleted = 7, new = 8
        }
        public var tripID: String?
        public var routeID: String?
        public var startTime: String?
        public var startDate: String?
        public var relationship: Relationship = .scheduled
        public var stopTimeUpdates: [StopTimeUpdate] = []
        public var delay: Int?

        public init(tripID: String? = nil, relationship: Relationship = .scheduled) {
            self.tripID = tripID
            self.relationship = relationship
        }
    }

    public struct Alert: Sendable, Equatable {
        public var routeIDs: [String] = []
        public var stopIDs: [String] = []
        public var tripIDs: [String] = []
        /// Active periods, as seconds since 1970 (nil: open).
        public var periods: [(start: Int?, end: Int?)] = []
        public var header: String?
        public var description: String?
        /// 1 NO_SERVICE … 8 UNKNOWN_EFFECT, as the proto numbers them.
        public var effect: Int?

        public static func == (lhs: Alert, rhs: Alert) -> Bool {
            lhs.routeIDs == rhs.routeIDs && lhs.stopIDs == rhs.stopIDs && lhs.tripIDs == rhs.tripIDs && lhs.header == rhs.header
                && lhs.description == rhs.description && lhs.effect == rhs.effect
                && lhs.periods.map { [$0.start, $0.end] } == rhs.periods.map { [$0.start, $0.end] }
        }
    }

    /// The header's timestamp, seconds since 1970.
    public var timestamp: Int?
    public var tripUpdates: [TripUpdate] = []
    public var alerts: [Alert] = []
    /// The trips already given an update, and the stop-time updates kept: a feed that repeats one
    /// trip, or sends millions of empty stop-time updates, is held to what a reader uses.
    private var updatedTrips: Set<String> = []
    private var keptStopTimeUpdates = 0
    /// The most stop-time updates kept from one feed (each trip's first update is the one used).
    public static let largestKeptStopTimeUpdates = 200_000

    /// The most entities read; the most stop-time updates, informed entities or periods in one.
    public static let largestList = 200_000
    public static let largestInner = 2_000
    /// The times that can be one: 1970 to the end of the year 9999.
    static let possibleTimes: ClosedRange<UInt64> = 0...253_402_300_799

    public init() {}

    /// Decodes a feed. Bytes that are not a protocol buffer, or a list past its bound, fail it whole.
    /// With `trips`, only the updates of those trips are kept (every one is still decoded and
    /// checked): a large agency's feed holds thousands, of which a commuter's routes want a few.
    public init(decoding data: Data, keepingTrips trips: Set<String>? = nil) throws {
        self.init()
        var entities = 0
        try data.withUnsafeBytes { raw in
            var reader = ProtobufReader(raw.bindMemory(to: UInt8.self))
            while let (number, wire) = try reader.nextField() {
                switch (number, wire) {
                case (1, .lengthDelimited): try header(try reader.lengthDelimited())
                case (2, .lengthDelimited):
                    entities += 1
                    guard entities <= Self.largestList else { throw ProtobufProblem("more than \(Self.largestList) entities") }
                    try entity(try reader.lengthDelimited(), keepingTrips: trips)
                default: try reader.skip(wire)
                }
            }
        }
    }

    private mutating func header(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            if number == 3, wire == .varint { timestamp = Self.time(try reader.varint()) } else { try reader.skip(wire) }
        }
    }

    private mutating func entity(_ bytes: UnsafeBufferPointer<UInt8>, keepingTrips trips: Set<String>?) throws {
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (3, .lengthDelimited):
                let update = try Self.tripUpdate(try reader.lengthDelimited())
                if let trips, update.tripID.map(trips.contains) != true { continue }
                // A trip's first update is the one read (a repeat is decoded, checked, and dropped).
                if let id = update.tripID, !updatedTrips.insert(id).inserted { continue }
                keptStopTimeUpdates += update.stopTimeUpdates.count
                guard keptStopTimeUpdates <= Self.largestKeptStopTimeUpdates else {
                    throw ProtobufProblem("more than \(Self.largestKeptStopTimeUpdates) stop-time updates for the trips asked about")
                }
                tripUpdates.append(update)
            case (5, .lengthDelimited): alerts.append(try Self.alert(try reader.lengthDelimited()))
            default: try reader.skip(wire)
            }
        }
    }

    static func time(_ value: UInt64) -> Int? { possibleTimes.contains(value) ? Int(value) : nil }

    /// A delay in seconds: an `int32` sent as a varint, kept only within a day either way.
    static func delay(_ value: Int64) -> Int? { (-86_400...86_400).contains(value) ? Int(value) : nil }

    private static func tripUpdate(_ bytes: UnsafeBufferPointer<UInt8>) throws -> TripUpdate {
        var update = TripUpdate()
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (1, .lengthDelimited): try trip(try reader.lengthDelimited(), into: &update)
            case (2, .lengthDelimited):
                guard update.stopTimeUpdates.count < largestInner else { throw ProtobufProblem("a trip update with over \(largestInner) stops") }
                update.stopTimeUpdates.append(try stopTimeUpdate(try reader.lengthDelimited()))
            case (5, .varint): update.delay = delay(try reader.signed())
            default: try reader.skip(wire)
            }
        }
        return update
    }

    private static func trip(_ bytes: UnsafeBufferPointer<UInt8>, into update: inout TripUpdate) throws {
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (1, .lengthDelimited): update.tripID = try reader.string(limit: 256)
            case (2, .lengthDelimited): update.startTime = try reader.string(limit: 16)
            case (3, .lengthDelimited): update.startDate = try reader.string(limit: 16)
            case (4, .varint):
                update.relationship = TripUpdate.Relationship(rawValue: Int(truncatingIfNeeded: try reader.varint())) ?? .scheduled
            case (5, .lengthDelimited): update.routeID = try reader.string(limit: 256)
            default: try reader.skip(wire)
            }
        }
    }

    private static func stopTimeUpdate(_ bytes: UnsafeBufferPointer<UInt8>) throws -> StopTimeUpdate {
        var update = StopTimeUpdate()
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (1, .varint): update.stopSequence = Int(exactly: try reader.varint()).flatMap { $0 <= Int(UInt32.max) ? $0 : nil }
            case (2, .lengthDelimited): update.arrival = try event(try reader.lengthDelimited())
            case (3, .lengthDelimited): update.departure = try event(try reader.lengthDelimited())
            case (4, .lengthDelimited): update.stopID = try reader.string(limit: 256)
            case (5, .varint):
                update.relationship = StopTimeUpdate.Relationship(rawValue: Int(truncatingIfNeeded: try reader.varint())) ?? .scheduled
            default: try reader.skip(wire)
            }
        }
        return update
    }

    private static func event(_ bytes: UnsafeBufferPointer<UInt8>) throws -> StopTimeEvent {
        var event = StopTimeEvent()
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (1, .varint): event.delay = delay(try reader.signed())
            case (2, .varint): event.time = time(UInt64(bitPattern: try reader.signed()))
            default: try reader.skip(wire)
            }
        }
        return event
    }

    private static func alert(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Alert {
        var alert = Alert()
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (1, .lengthDelimited):
                guard alert.periods.count < largestInner else { throw ProtobufProblem("an alert with over \(largestInner) periods") }
                alert.periods.append(try period(try reader.lengthDelimited()))
            case (5, .lengthDelimited):
                guard alert.routeIDs.count + alert.stopIDs.count + alert.tripIDs.count < largestInner else {
                    throw ProtobufProblem("an alert naming over \(largestInner) entities")
                }
                try informed(try reader.lengthDelimited(), into: &alert)
            case (7, .varint): alert.effect = Int(truncatingIfNeeded: try reader.varint())
            case (10, .lengthDelimited): alert.header = try translated(try reader.lengthDelimited())
            case (11, .lengthDelimited): alert.description = try translated(try reader.lengthDelimited())
            default: try reader.skip(wire)
            }
        }
        return alert
    }

    private static func period(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (start: Int?, end: Int?) {
        var period: (start: Int?, end: Int?) = (nil, nil)
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (1, .varint): period.start = time(try reader.varint())
            case (2, .varint): period.end = time(try reader.varint())
            default: try reader.skip(wire)
            }
        }
        return period
    }

    private static func informed(_ bytes: UnsafeBufferPointer<UInt8>, into alert: inout Alert) throws {
        var reader = ProtobufReader(bytes)
        while let (number, wire) = try reader.nextField() {
            switch (number, wire) {
            case (2, .lengthDelimited): alert.routeIDs.append(try reader.string(limit: 256))
            case (5, .lengthDelimited): alert.stopIDs.append(try reader.string(limit: 256))
            case (4, .lengthDelimited):
                var update = TripUpdate()
                try trip(try reader.lengthDelimited(), into: &update)
                if let id = update.tripID { alert.tripIDs.append(id) }
            default: try reader.skip(wire)
            }
        }
    }

    /// The first translation's text (the untagged or the feed's own language comes first in practice).
    private static func translated(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String? {
        var reader = ProtobufReader(bytes)
        var texts: [(text: String, language: String?)] = []
        while let (number, wire) = try reader.nextField() {
            guard number == 1, wire == .lengthDelimited, texts.count < 64 else {
                try reader.skip(wire)
                continue
            }
            var inner = ProtobufReader(try reader.lengthDelimited())
            var text: String?
            var language: String?
            while let (field, kind) = try inner.nextField() {
                switch (field, kind) {
                case (1, .lengthDelimited): text = try inner.string(limit: 4_096)
                case (2, .lengthDelimited): language = try inner.string(limit: 32)
                default: try inner.skip(kind)
                }
            }
            if let text { texts.append((text, language)) }
        }
        let chosen = texts.first { $0.language == nil || $0.language?.hasPrefix("en") == true } ?? texts.first
        return chosen.map { DisplayText.line($0.text) }
    }
}
