import FoundationEssentials

/// One leg of a door-to-door itinerary: a walk, or a ride on one line, with its times as predicted
/// and as the timetable had them.
public struct TransitLeg: Codable, Sendable, Equatable {
    /// `WALK`, `BUS`, `TRAM`, `SUBWAY`, `REGIONAL_RAIL`…, as the planner names it.
    public var mode: String
    /// The line's short name (`545`, `U5`); nil for a walk.
    public var line: String?
    public var headsign: String?
    /// Where it starts and ends, by name (`START` and `END` are the doors).
    public var from: String
    public var to: String
    public var departure: Date
    public var arrival: Date
    public var scheduledDeparture: Date
    /// Whether live data stands behind the times: false is the timetable alone, never "on time".
    public var realtime: Bool
    public var cancelled: Bool

    public init(
        mode: String, line: String?, headsign: String?, from: String, to: String, departure: Date, arrival: Date,
        scheduledDeparture: Date, realtime: Bool, cancelled: Bool
    ) {
        self.mode = mode
        self.line = line
        self.headsign = headsign
        self.from = from
        self.to = to
        self.departure = departure
        self.arrival = arrival
        self.scheduledDeparture = scheduledDeparture
        self.realtime = realtime
        self.cancelled = cancelled
    }

    /// A walk (or any leg on the street): no line, no vehicle.
    public var isWalk: Bool { line == nil && Self.isStreet(mode) }

    /// The planner's modes that move on the street, not on a line (MOTIS's `Mode`).
    public static func isStreet(_ mode: String) -> Bool { streetModes.contains(mode) }
    private static let streetModes: Set<String> = ["WALK", "BIKE", "CAR", "RENTAL", "FLEX", "CAR_PARKING", "ODM"]

    /// How late it leaves, in whole minutes; 0 when on time or early, or without live data.
    public var delayMinutes: Int {
        guard realtime else { return 0 }
        return max(0, Int((departure.timeIntervalSince(scheduledDeparture) / 60).rounded()))
    }

    /// The most legs kept of one itinerary, and the longest name.
    public static let largestCount = 16
    public static let longestName = 120
}
