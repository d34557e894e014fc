/// Reading the times and days people type. Pure functions; the CLI passes user text straight in.
public enum ScheduleParsing {
    /// Reads `7:00`, `07:00`, `16:30`, `7:00am`, `4:30 PM`, `7am`, `12:05 AM`.
    public static func time(_ text: String) throws(ModelError) -> TimeOfDay {
        let trimmed = text.trimmingWhitespace().lowercased()
        var clock = Substring(trimmed)
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m."] where clock.hasSuffix(suffix) {
            meridiem = String(suffix.prefix(1))
            clock = clock.dropLast(suffix.count)
            while clock.last == " " { clock = clock.dropLast() }
            break
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
            parts[0].count <= 2, parts.count == 1 ? meridiem != nil : parts[1].count == 2,
            var hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0, minute < 60
        else { throw .badTime(text) }
        switch meridiem {
        case "a":
            guard (1...12).contains(hour) else { throw .badTime(text) }
            hour %= 12
        case "p":
            guard (1...12).contains(hour) else { throw .badTime(text) }
            hour = hour % 12 + 12
        default:
            guard hour < 24 else { throw .badTime(text) }
        }
        return TimeOfDay(hour: hour, minute: minute)
    }

    /// Reads a comma list of day names (`mon,tue`, `Monday`) and the words `weekdays`, `weekends`
    /// and `daily`, any case, in any mix (`weekdays,sat`). Nothing at all is no day.
    public static func days(_ text: String) throws(ModelError) -> Set<Weekday> {
        let trimmed = text.trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty else { throw .noDays }
        var days = Set<Weekday>()
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item).trimmingWhitespace()
            switch name {
            case "weekdays": days.formUnion(Weekday.weekdays)
            case "weekends", "weekend": days.formUnion(Weekday.weekend)
            case "daily", "every day", "everyday", "all": days.formUnion(Weekday.allCases)
            default:
                guard let day = dayNames[name] else { throw .badDay(name.isEmpty ? text : name) }
                days.insert(day)
            }
        }
        return days
    }

    /// Reads a route ID: a whole number, as WSDOT's `TravelTimeID`, or a custom route's
    /// (`home-work`: lowercase letters, digits and dashes, with a letter).
    public static func routeID(_ text: String) throws(ModelError) -> RouteID {
        let trimmed = text.trimmingWhitespace()
        if Route.isValidCustomID(trimmed) { return RouteID(trimmed) }
        guard !trimmed.isEmpty, trimmed.count <= 9, trimmed.allSatisfy(\.isASCIIDigit), let number = Int(trimmed)
        else { throw .badRouteID(text) }
        return RouteID(String(number))
    }

    /// The largest delay threshold, in minutes (four digits).
    public static let largestThreshold = 9_999

    /// Reads notifier names, comma-separated (`phone,desk`): nil when any is not a name, or there
    /// are none, or more than 20.
    public static func notifierNames(_ text: String) -> [String]? {
        let names = text.split(separator: ",").map { $0.trimmingWhitespace() }
        guard !names.isEmpty, names.count <= 20, names.allSatisfy(NotifierName.isValid) else { return nil }
        return names
    }

    /// The threshold `auto` stands in with where a route's history is too thin to know its usual.
    public static let usualFallbackMinutes = 10

    /// Reads a smart-alert or watch threshold: minutes, `off` (nil), or `auto` — above the
    /// route's usual 90th percentile, with `usualFallbackMinutes` standing in where history is thin.
    public static func delayThreshold(_ text: String) throws(ModelError) -> (minutes: Int?, aboveUsual: Bool) {
        if text.trimmingWhitespace().lowercased() == "auto" { return (usualFallbackMinutes, true) }
        return (try threshold(text), false)
    }

    /// Reads a smart-alert threshold in minutes (`10`, `10m`, `10min`), or `off` for none.
    public static func threshold(_ text: String) throws(ModelError) -> Int? {
        var trimmed = Substring(text.trimmingWhitespace().lowercased())
        if trimmed == "off" || trimmed == "none" { return nil }
        for suffix in ["minutes", "min", "m"] where trimmed.hasSuffix(suffix) {
            trimmed = trimmed.dropLast(suffix.count)
            break
        }
        guard !trimmed.isEmpty, trimmed.count <= 4, trimmed.allSatisfy(\.isASCIIDigit), let minutes = Int(trimmed),
            minutes >= 1
        else { throw .badThreshold(text) }
        return minutes
    }

    private static let dayNames: [String: Weekday] = {
        var names: [String: Weekday] = [:]
        for day in Weekday.allCases {
            names[day.name.lowercased()] = day
            names[day.shortName.lowercased()] = day
        }
        names["tues"] = .tuesday
        names["weds"] = .wednesday
        names["thur"] = .thursday
        names["thurs"] = .thursday
        return names
    }()

    /// `10m`, `90s`, `1h`, or a bare number of minutes; in seconds. Nil for anything else, and for
    /// more digits than any duration needs (no input can overflow).
    public static func duration(_ text: String) -> Int? {
        let trimmed = text.trimmingWhitespace().lowercased()
        let units: [(String, Int)] = [("h", 3_600), ("min", 60), ("m", 60), ("s", 1), ("", 60)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            let digits = trimmed.dropLast(suffix.count)
            guard (1...9).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let number = Int(digits) else { continue }
            return number * scale
        }
        return nil
    }
}

