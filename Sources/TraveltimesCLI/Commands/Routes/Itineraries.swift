import CommuteCore
import FoundationEssentials

/// `7:42 AM → 8:31 AM  49 min  545 → U5 (1 change), +3 min live`: one itinerary on one line.
enum ItineraryText {
    static func line(_ itinerary: TransitDeparture, calendar: ZonedCalendar) -> String {
        let leave = calendar.local(itinerary.canceled ? itinerary.scheduled : itinerary.expected).time.label
        let arrive = calendar.local(itinerary.arrival).time.label
        let minutes = max(0, Int((itinerary.arrival.timeIntervalSince(itinerary.expected) / 60).rounded()))
        let rides = (itinerary.legs ?? []).filter { !$0.isWalk }
        let lines = rides.compactMap(\.line).joined(separator: " → ")
        let changes = itinerary.transfers ?? max(0, rides.count - 1)
        let walk = (itinerary.legs ?? []).filter(\.isWalk).reduce(0) { $0 + $1.arrival.timeIntervalSince($1.departure) }
        var text = "\(leave) → \(arrive)  \(minutes) min  \(lines.isEmpty ? "walk" : lines)"
        text += changes == 0 ? "" : " (\(changes) change\(changes == 1 ? "" : "s"))"
        if walk >= 60 { text += ", walk \(Int((walk / 60).rounded())) min" }
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
    var legs: [Leg]

    /// The itineraries from `moment` on, soonest first.
    static func list(_ transit: Route.Transit?, at moment: Date, calendar: ZonedCalendar) -> [ItineraryJSON] {
        let time = { (date: Date) in TimeFormatting.iso8601(date, calendar: calendar) }
        return (transit?.departures(after: moment) ?? []).filter { !$0.dropped }.prefix(10).map { itinerary in
            ItineraryJSON(
                departure: time(itinerary.expected), arrival: time(itinerary.arrival),
                duration: max(0, Int((itinerary.arrival.timeIntervalSince(itinerary.expected) / 60).rounded())),
                transfers: itinerary.transfers ?? 0,
                legs: (itinerary.legs ?? []).map { leg in
                    Leg(
                        mode: leg.mode, line: leg.line, headsign: leg.headsign, from: leg.from, to: leg.to, departure: time(leg.departure),
                        arrival: time(leg.arrival), scheduledDeparture: time(leg.scheduledDeparture), realtime: leg.realtime,
                        cancelled: leg.cancelled)
                })
        }
    }
}
