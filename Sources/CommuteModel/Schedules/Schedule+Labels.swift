extension Schedule {
    /// `Every day`, `Weekdays`, `Weekends`, or short names from Monday: `Mon, Wed, Fri`.
    public var daysLabel: String { Self.daysLabel(days) }

    /// `7:00 AM`, or `Arrive by 9:00 AM`.
    public var timeLabel: String {
        switch timing {
        case .at: time.label
        case .arriveBy: "Arrive by \(time.label)"
        }
    }

    /// `Enabled notification at 7:00 AM, Monday, Tuesday, Wednesday, Thursday, Friday, 3 routes` —
    /// the form a screen reader speaks.
    public var spokenLabel: String {
        let state = isEnabled ? "Enabled" : "Disabled"
        let dayNames = Weekday.mondayFirst.filter(days.contains).map(\.name).joined(separator: ", ")
        let routes = routeIDs.count == 1 ? "1 route" : "\(routeIDs.count) routes"
        var label = switch timing {
        case .at: "\(state) notification at \(timeLabel), \(dayNames), \(routes)"
        case .arriveBy: "\(state) leave-by notification, arrive by \(time.label), \(dayNames), \(routes)"
        }
        if onlyWhenAboveUsual == true {
            label += ", only when slower than usual"
        } else if let threshold = onlyWhenDelayedBy {
            label += ", only when delayed by \(threshold) minutes or more"
        }
        return label
    }

    /// `only when +10 min`, `only when slower than usual`; nil for an alert that always goes out.
    public var smartLabel: String? {
        if onlyWhenAboveUsual == true { return "only when slower than usual" }
        return onlyWhenDelayedBy.map { "only when +\($0) min" }
    }

    /// The label for any set of days.
    public static func daysLabel(_ days: Set<Weekday>) -> String {
        switch days {
        case Set(Weekday.allCases): "Every day"
        case Weekday.weekdays: "Weekdays"
        case Weekday.weekend: "Weekends"
        default: Weekday.mondayFirst.filter(days.contains).map(\.shortName).joined(separator: ", ")
        }
    }
}
