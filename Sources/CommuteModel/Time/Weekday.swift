import Basics
/// A day of the week. Raw values follow Foundation's Gregorian calendar: 1 = Sunday … 7 = Saturday.
public enum Weekday: Int, CaseIterable, Codable, Sendable, Comparable, CustomStringConvertible {
    case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

    /// The days in the order people read a week: Monday first.
    public static let mondayFirst: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
    /// Monday to Friday.
    public static let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// Saturday and Sunday.
    public static let weekend: Set<Weekday> = [.saturday, .sunday]

    /// `Monday`.
    public var name: String {
        switch self {
        case .sunday: "Sunday"
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        }
    }

    /// `Mon`.
    public var shortName: String {
        switch self {
        case .sunday: "Sun"
        case .monday: "Mon"
        case .tuesday: "Tue"
        case .wednesday: "Wed"
        case .thursday: "Thu"
        case .friday: "Fri"
        case .saturday: "Sat"
        }
    }

    public var description: String { name }

    /// Position in a Monday-first week, 0…6; used to sort labels.
    public var mondayFirstIndex: Int { (rawValue + 5) % 7 }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension CivilDate {
    public var weekday: Weekday { Self.weekday(ofDayNumber: dayNumber) }

    public static func weekday(ofDayNumber dayNumber: Int) -> Weekday {
        Weekday(rawValue: weekdayIndex(ofDayNumber: dayNumber) + 1) ?? .sunday
    }
}
