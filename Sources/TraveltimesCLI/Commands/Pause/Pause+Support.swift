import CommuteCore
import FoundationEssentials

extension Commands {

    /// `all schedules, Thu, Nov 26 – Fri, Nov 27 (Thanksgiving)`.
    static func describe(_ pause: Pause, _ schedules: [Schedule], _ commute: Commute) -> String {
        let year = commute.today.year
        var text: String
        if let id = pause.scheduleID {
            text = schedules.first { $0.id == id }.map { "schedule \(shortID($0)) (\($0.timeLabel) on \($0.daysLabel))" }
                ?? "schedule \(id.shortForm)"
        } else {
            text = "all schedules"
        }
        text += pause.from == pause.until
            ? ", \(TimeFormatting.day(pause.from, thisYear: year))"
            : ", \(TimeFormatting.day(pause.from, thisYear: year)) – \(TimeFormatting.day(pause.until, thisYear: year))"
        if let reason = pause.reason { text += " (\(reason))" }
        return text
    }

    /// `2026-11-27`, `today`, `tomorrow`.
    static func date(_ text: String, _ option: String, _ commute: Commute, _ invocation: Invocation) throws -> CivilDate {
        switch text.lowercased() {
        case "today": return commute.today
        case "tomorrow": return CivilDate(dayNumber: commute.today.dayNumber + 1)
        default:
            guard let date = CivilDate(iso: text) else {
                throw invocation.usage("Invalid \(option) '\(DisplayText.line(text))': use a date such as 2026-11-27, or today or tomorrow.")
            }
            return date
        }
    }
}

/// `pause list --json`: a public contract.
struct PauseJSON: EveryKeyEncodable {
    var number: Int
    /// `2026-11-26`: the first day paused, in the schedules' zone.
    var from: String
    /// The last day paused, included.
    var until: String
    /// Null for every schedule.
    var scheduleID: String?
    var reason: String?

    init(_ pause: Pause) {
        number = pause.number
        from = pause.from.iso
        until = pause.until.iso
        scheduleID = pause.scheduleID?.lowercasedString
        reason = pause.reason
    }
}
