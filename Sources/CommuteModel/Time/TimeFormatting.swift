import Basics
import FoundationEssentials

/// The few ways the product writes times for people.
public enum TimeFormatting {
    /// `2 min`, `3 h`, `4 days`: a rounded-down duration.
    public static func age(_ interval: TimeInterval) -> String {
        let minutes = max(0, Int(interval / 60))
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 { return "\(minutes / 60) h" }
        return "\(minutes / 1_440) days"
    }

    /// `+19 min`, `on time`, `-3 min`.
    /// `1.25`, `1.5`, `2`: a multiplier as typed, without trailing zeros.
    public static func factor(_ value: Double) -> String {
        var text = String(cFormat: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    public static func delay(_ minutes: Int) -> String {
        switch minutes {
        case 0: "on time"
        case 1...: "+\(minutes) min"
        default: "\(minutes) min"
        }
    }

    /// `4:00 PM` when on the same local day as `reference`, else `Tue, Nov 4, 4:00 PM` (with the
    /// year too when it differs).
    public static func moment(_ date: Date, relativeTo reference: Date, calendar: ZonedCalendar) -> String {
        let local = calendar.local(date)
        let referenceDate = calendar.local(reference).date
        if local.date == referenceDate { return local.time.label }
        var text = "\(local.weekday.shortName), \(monthNames[local.date.month - 1]) \(local.date.day)"
        if local.date.year != referenceDate.year { text += ", \(local.date.year)" }
        return text + ", \(local.time.label)"
    }

    /// `Tue, Nov 4, 4:00 PM`, always with the day; with the year (`Mon, Jan 3, 2028, 7:00 AM`)
    /// when it is not the year of the moment the calendar was made around.
    public static func dayAndTime(_ date: Date, calendar: ZonedCalendar) -> String {
        let local = calendar.local(date)
        let year = local.date.year == calendar.year ? "" : ", \(local.date.year)"
        return "\(local.weekday.shortName), \(monthNames[local.date.month - 1]) \(local.date.day)\(year), \(local.time.label)"
    }

    /// An instant with the zone's offset at that instant: `2025-11-04T16:00:00-08:00`.
    public static func iso8601(_ date: Date, calendar: ZonedCalendar) -> String {
        ISO8601.string(date, offset: calendar.offset(at: date))
    }

    /// `Thu, Nov 26`, with the year when it is not `thisYear`'s.
    public static func day(_ date: CivilDate, thisYear: Int) -> String {
        let month = (1...12).contains(date.month) ? monthNames[date.month - 1] : "?"
        return "\(date.weekday.shortName), \(month) \(date.day)" + (date.year == thisYear ? "" : ", \(date.year)")
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
