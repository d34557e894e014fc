import CommuteCore
import FoundationEssentials

extension Commands {

}

/// A command that ran and failed in part, with its own exit status.
struct CommandFailed: ProcessError, CustomStringConvertible {
    var message: String
    var exitCode: ExitCode
    var description: String { message }
}

extension HistoryImportError: ProcessError {
    var exitCode: ExitCode { .dataError }
}

/// `history --json`.
struct HistoryJSON: Encodable {
    struct Slot: Encodable {
        var weekday: Int
        var start: String
        var median: Double
        var p90: Double
        var readings: Int
        var weeks: Int
        var enough: Bool
    }

    struct Reading: Encodable {
        var at: String
        var minutes: Int
        var source: String
        var suspicious: Bool
    }

    var route: RouteID
    var name: String?
    var zone: String
    var weeks: Int
    var since: String
    var recorded: Bool
    var total: Int
    var damaged: Int
    var slots: [Slot]
    var readings: [Reading]

    init(_ view: History.HistoryView, calendar: ZonedCalendar) {
        route = view.routeID
        name = view.route?.name
        zone = view.zone
        weeks = view.weeks
        since = TimeFormatting.iso8601(view.since, calendar: calendar)
        recorded = view.isRecorded
        total = view.total
        damaged = view.damaged
        slots = view.slots.sorted { $0.key < $1.key }.map { slot, typical in
            Slot(
                weekday: slot.weekday.rawValue, start: slot.startText, median: typical.median, p90: typical.p90,
                readings: typical.readings, weeks: typical.weeks, enough: typical.isEnough)
        }
        readings = view.readings.map {
            Reading(at: TimeFormatting.iso8601($0.date, calendar: calendar), minutes: $0.minutes, source: $0.source.name, suspicious: $0.suspicious)
        }
    }
}

/// `best-time --json`.
struct BestTimeJSON: Encodable {
    struct Choice: Encodable {
        var route: RouteID
        var leave: String
        var minutes: Double
        var arrival: String
        var weeks: Int
        var readings: Int
    }

    struct Day: EveryKeyEncodable {
        var weekday: Int
        var leastTravel: Choice?
        var onTime: Choice?
        var reliable: Choice?
    }

    var arriveBy: String
    var earliest: String
    var latest: String
    var weeks: Int
    var days: [Day]

    init(_ best: History.BestTime) {
        func text(_ time: TimeOfDay) -> String { TimeSlot.clock(time) }
        func choice(_ choice: History.BestTime.Choice?) -> Choice? {
            choice.map {
                Choice(route: $0.routeID, leave: text($0.leave), minutes: $0.minutes, arrival: text($0.arrival), weeks: $0.weeks, readings: $0.readings)
            }
        }
        arriveBy = text(best.arriveBy)
        earliest = text(best.earliest)
        latest = text(best.latest)
        weeks = best.weeks
        days = best.days.map {
            Day(weekday: $0.weekday.rawValue, leastTravel: choice($0.leastTravel), onTime: choice($0.onTime), reliable: choice($0.reliable))
        }
    }
}
