import CommuteCore
import FoundationEssentials

/// `7:42 AM → 8:31 AM  49 min  545 at 7:48 AM → U5 (1 change), walk 9 min, +3 min live`: one
/// itinerary on one line, from the door to the door, with the time its first line leaves.
enum ItineraryText {
    /// The leave time says its day when it is not `reference`'s (now); the others, when not its.
    static func line(_ itinerary: TransitDeparture, calendar: ZonedCalendar, on reference: Date) -> String {
        let start = itinerary.canceled ? itinerary.scheduled : itinerary.expected
        let time = { (date: Date) in TimeFormatting.moment(date, relativeTo: start, calendar: calendar) }
        let leave = TimeFormatting.moment(start, relativeTo: reference, calendar: calendar)
        let arrive = time(itinerary.arrival)
        let minutes = max(0, Int((itinerary.arrival.timeIntervalSince(itinerary.expected) / 60).rounded()))
        let rides = (itinerary.legs ?? []).filter { !$0.isWalk }
        var lines = rides.compactMap(\.line)
        if !lines.isEmpty { lines[0] += " at \(time(itinerary.boarding))" }
        let changes = itinerary.transfers ?? max(0, rides.count - 1)
        // On the street: each way's minutes (a rental bike is not a walk).
        var street: [(String, TimeInterval)] = []
        for leg in itinerary.legs ?? [] where leg.isWalk {
            let way = leg.mode == "WALK" ? "walk" : leg.mode.lowercased()
            if let index = street.firstIndex(where: { $0.0 == way }) { street[index].1 += leg.arrival.timeIntervalSince(leg.departure) } else {
                street.append((way, leg.arrival.timeIntervalSince(leg.departure)))
            }
        }
        street.sort { ($0.0 == "walk" ? 1 : 0, $0.0) < ($1.0 == "walk" ? 1 : 0, $1.0) }
        let ways = street.filter { $0.1 >= 60 }.map { "\($0.0) \(Int(($0.1 / 60).rounded())) min" }
        var text = "\(leave) → \(arrive)  \(minutes) min  "
        if lines.isEmpty {
            text += ways.isEmpty ? "walk" : ways.joined(separator: ", ")
        } else {
            text += lines.joined(separator: " → ") + (changes == 0 ? "" : " (\(changes) change\(changes == 1 ? "" : "s"))")
            if !ways.isEmpty { text += ", " + ways.joined(separator: ", ") }
        }
        if itinerary.canceled { return text + "  CANCELLED" }
        if itinerary.dropped { return text + "  no longer arrives in time" }
        if let delay = itinerary.delaySeconds {
            let minutes = Int((Double(delay) / 60).rounded())
            text += minutes == 0 ? ", on time (live)" : ", \(TimeFormatting.delay(minutes)) (live)"
        } else if !rides.isEmpty {
            text += ", timetable"
        }
        return text
    }
}

/// One itinerary in `route ID --json`.
struct ItineraryJSON: EveryKeyEncodable {
    struct Leg: EveryKeyEncodable {
        var mode: String
        var line: String?
        var headsign: String?
        var from: String
        var to: String
        var departure: String
        var arrival: String
        var scheduledDeparture: String
        var realtime: Bool
        var cancelled: Bool
    }

    var departure: String
    var arrival: String
    /// Door to door, in whole minutes.
    var duration: Int
    var transfers: Int
    /// When its first line leaves (null for a way on the street alone).
    var boarding: String?
    var legs: [Leg]
    /// The service alerts in force on its way, one line each.
    var notices: [String]

    /// The itineraries from `moment` on, soonest first.
    static func list(_ transit: Route.Transit?, at moment: Date, calendar: ZonedCalendar) -> [ItineraryJSON] {
        let time = { (date: Date) in TimeFormatting.iso8601(date, calendar: calendar) }
        return (transit?.departures(after: moment) ?? []).filter { !$0.dropped }.prefix(10).map { itinerary in
            ItineraryJSON(
                departure: time(itinerary.expected), arrival: time(itinerary.arrival),
                duration: max(0, Int((itinerary.arrival.timeIntervalSince(itinerary.expected) / 60).rounded())),
                transfers: itinerary.transfers ?? 0, boarding: itinerary.firstRide.map { _ in time(itinerary.boarding) },
                legs: (itinerary.legs ?? []).map { leg in
                    Leg(
                        mode: leg.mode, line: leg.line, headsign: leg.headsign, from: leg.from, to: leg.to, departure: time(leg.departure),
                        arrival: time(leg.arrival), scheduledDeparture: time(leg.scheduledDeparture), realtime: leg.realtime,
                        cancelled: leg.cancelled)
                }, notices: itinerary.notices ?? [])
        }
    }
}
