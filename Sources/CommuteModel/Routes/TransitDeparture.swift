import FoundationEssentials

/// One departure from a transit route's first stop: when the timetable says, when the realtime
/// feed predicts (nil without realtime data — never assumed on time), whether it is cancelled or
/// skips the stop, and when it reaches the second stop.
public struct TransitDeparture: Sendable, Equatable {
    public var tripID: String
    public var line: String
    public var headsign: String
    public var scheduled: Date
    public var predicted: Date?
    public var delaySeconds: Int?
    public var canceled: Bool
    public var skipped: Bool
    /// At the second stop: predicted when the departure is, else scheduled.
    public var arrival: Date
    /// At the second stop, as the timetable has it.
    public var scheduledArrival: Date
    /// A delay the realtime feed gave that lies outside what the trip can be (over 4 times its
    /// walk and ride): held back, the timetable used, until the next feed says it too.
    public var heldDelaySeconds: Int?
    /// A door-to-door itinerary's legs (walks and rides) and changes; nil for a GTFS route's
    /// departure, which is one ride between two stops.
    public var legs: [TransitLeg]?
    public var transfers: Int?
    /// An itinerary the planner offered for this arrival and no longer does (its run now arrives
    /// too late, or is gone): kept so that a plan that was on it can say why it moved.
    public var dropped = false
    /// The service alerts in force on the itinerary's legs and stops while it runs, one line each
    /// (a planner's; a GTFS route keeps its feed's on the route).
    public var notices: [String]?
    /// A prediction carried over from an earlier realtime feed, when this refresh had none: when
    /// that feed was made. Its bus, late, may still be caught after its timetable time.
    public var predictedAt: Date?
    /// The planner's own name for the itinerary (MOTIS's opaque `Itinerary.id`), which its
    /// `refresh-itinerary` takes to tell what became of it; nil for a GTFS departure.
    public var itinerary: String?

    /// Whether `text` can be an itinerary's ID: one word of the characters base64 and URLs use,
    /// at most `longestItinerary` of them (a real one is some 600).
    public static func isItineraryID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= longestItinerary
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+/=_-.:".utf8.contains(byte)
            }
    }
    public static let longestItinerary = 2_048

    public init(
        tripID: String, line: String, headsign: String, scheduled: Date, predicted: Date?, delaySeconds: Int?, canceled: Bool,
        skipped: Bool, arrival: Date, scheduledArrival: Date, heldDelaySeconds: Int? = nil
    ) {
        self.tripID = tripID
        self.line = line
        self.headsign = headsign
        self.scheduled = scheduled
        self.predicted = predicted
        self.delaySeconds = delaySeconds
        self.canceled = canceled
        self.skipped = skipped
        self.arrival = arrival
        self.scheduledArrival = scheduledArrival
        self.heldDelaySeconds = heldDelaySeconds
    }

    /// When it actually leaves, as best known: the prediction, else the timetable.
    public var expected: Date { predicted ?? scheduled }

    /// The itinerary's first ride, when it has legs and one of them rides a line.
    public var firstRide: TransitLeg? { legs?.first { !$0.isWalk } }

    /// When the line itself leaves (as best known; a cancelled one, as it was to): a door-to-door
    /// itinerary's first ride, which leaves after the walk to its stop; a GTFS departure's own time.
    public var boarding: Date {
        if let ride = firstRide { return canceled ? ride.scheduledDeparture : ride.departure }
        return canceled ? scheduled : expected
    }

    /// When the timetable has the line leave.
    public var scheduledBoarding: Date { firstRide?.scheduledDeparture ?? scheduled }

    /// Whether it is walking or cycling alone, with no line to take (a planner's direct answer).
    public var isOnTheStreet: Bool { legs.map { !$0.isEmpty && $0.allSatisfy(\.isWalk) } ?? false }

    /// The same run of the same trip: what a later feed's departure is matched with.
    public func isSameRun(as other: TransitDeparture) -> Bool { tripID == other.tripID && scheduled == other.scheduled }

    /// Which run of which trip it is.
    public var run: TransitRun { TransitRun(trip: tripID, scheduled: scheduled) }

    /// Judges the realtime delay against the timetable, as readings are judged against what is
    /// usual: a door-to-door time over `factor` times the walk and the timetable's ride is held
    /// back, unless `previous` (the same run in the feed before, older than this one) was outside
    /// too and so confirms it.
    package func judged(walkMinutes: Int, factor: Int, previous: TransitDeparture?) -> TransitDeparture {
        guard let delay = delaySeconds else { return self }
        let walk = TimeInterval(walkMinutes * 60)
        let usual = walk + max(60, scheduledArrival.timeIntervalSince(scheduled))
        guard walk + arrival.timeIntervalSince(scheduled) > Double(factor) * usual else { return self }
        if let previous, previous.heldDelaySeconds != nil
            || (previous.delaySeconds != nil && walk + previous.arrival.timeIntervalSince(previous.scheduled) > Double(factor) * usual)
        {
            return self
        }
        var held = self
        held.heldDelaySeconds = delay
        held.delaySeconds = nil
        held.predicted = nil
        held.arrival = scheduledArrival
        return held
    }
}

/// One run of a trip (its ID and scheduled departure): which bus a plan was on.
public struct TransitRun: Codable, Sendable, Equatable, Hashable {
    public var trip: String
    public var scheduled: Date

    public init(trip: String, scheduled: Date) {
        self.trip = trip
        self.scheduled = scheduled
    }

    /// The longest trip ID kept: far past any feed's.
    public static let longestTrip = 256
}

/// What an arrive-by plan on a transit route remembers of its occurrence between plans: the bus
/// it is on, and the one it was on before that bus replaced it — so that when the plan moves, the
/// alert names what moved it ("The 7:42 AM is cancelled: take the 7:27 AM").
public struct TransitMemory: Codable, Sendable, Equatable {
    public var departure: TransitRun?
    public var replaced: TransitRun?

    public init(departure: TransitRun?, replaced: TransitRun?) {
        self.departure = departure
        self.replaced = replaced
    }

    /// The bus a plan on `chosen` replaced: the one remembered, when it is another.
    func replaced(by chosen: TransitRun) -> TransitRun? {
        if let departure, departure != chosen { return departure }
        if let replaced, replaced != chosen { return replaced }
        return nil
    }
}
