import Basics
import CommuteModel
import FoundationEssentials

// What each store file may hold. A file that parses but holds an impossible value (an hour of 99,
// a negative count, a zone that does not exist) is refused when read — exit 65 with the path and
// the reason, the file untouched — instead of reaching arithmetic, an array index or a loop.

@_spi(Store)
extension Favorites {
    public func validate() throws(DocumentProblem) {
        var seen = Set<RouteID>()
        for (index, id) in routeIDs.enumerated() {
            try DocumentProblem.check(id.isValid, "routeIDs[\(index)] '\(id)' is not a route ID")
            try DocumentProblem.check(seen.insert(id).inserted, "routeIDs lists '\(id)' twice")
        }
        var names = Set<String>()
        for (index, group) in groups.enumerated() {
            try DocumentProblem.check(RouteGroup.isValidName(group.name), "groups[\(index)].name is not a group name")
            try DocumentProblem.check(names.insert(group.name.lowercased()).inserted, "groups[\(index)].name repeats another group's")
            try DocumentProblem.check(!group.routeIDs.isEmpty, "groups[\(index)].routeIDs is empty")
            for id in group.routeIDs {
                try DocumentProblem.check(id.isValid, "groups[\(index)].routeIDs has '\(id)', not a route ID")
            }
        }
        names = []
        for (index, commute) in commutes.enumerated() {
            try DocumentProblem.check(RouteGroup.isValidName(commute.name), "commutes[\(index)].name is not a commute name")
            try DocumentProblem.check(names.insert(commute.name.lowercased()).inserted, "commutes[\(index)].name repeats another commute's")
            try DocumentProblem.check((2...RouteGroup.mostWays).contains(commute.routeIDs.count), "commutes[\(index)].routeIDs holds \(commute.routeIDs.count) routes, not 2 to \(RouteGroup.mostWays)")
            var ways = Set<RouteID>()
            for id in commute.routeIDs {
                try DocumentProblem.check(id.isValid, "commutes[\(index)].routeIDs has '\(id)', not a route ID")
                try DocumentProblem.check(ways.insert(id).inserted, "commutes[\(index)].routeIDs lists '\(id)' twice")
            }
        }
    }
}

@_spi(Store)
extension ScheduleBook {
    public func validate() throws(DocumentProblem) {
        var seen = Set<UUID>(minimumCapacity: schedules.count)
        for index in schedules.indices {
            // Read in place (a schedule is a large value), and named only when something is wrong:
            // this runs for each of thousands.
            var field: String { "schedules[\(index)]" }
            try DocumentProblem.check(seen.insert(schedules[index].id).inserted, "\(field).id repeats an earlier schedule's")
            try DocumentProblem.check(!schedules[index].routeIDs.isEmpty, "\(field).routeIDs is empty")
            for id in schedules[index].routeIDs {
                try DocumentProblem.check(id.isValid, "\(field).routeIDs has '\(id)', not a route ID")
            }
            try DocumentProblem.check(!schedules[index].days.isEmpty, "\(field).days is empty")
            try DocumentProblem.range(schedules[index].hour, 0...23, "\(field).hour")
            try DocumentProblem.range(schedules[index].minute, 0...59, "\(field).minute")
            if let threshold = schedules[index].onlyWhenDelayedBy {
                try DocumentProblem.range(threshold, 1...ScheduleParsing.largestThreshold, "\(field).onlyWhenDelayedBy")
            }
            if schedules[index].onlyWhenAboveUsual == true {
                try DocumentProblem.check(schedules[index].onlyWhenDelayedBy != nil, "\(field).onlyWhenAboveUsual has no onlyWhenDelayedBy to stand in")
            }
            for name in schedules[index].notify ?? [] {
                try DocumentProblem.check(NotifierName.isValid(name), "\(field).notify has '\(DisplayText.line(String(name.prefix(40))))', not a notifier name")
            }
            if case .arriveBy(let buffer, let headsUp) = schedules[index].timing {
                try DocumentProblem.range(buffer, 0...Schedule.Timing.largestBufferMinutes, "\(field).arriveBy.bufferMinutes")
                if let headsUp {
                    try DocumentProblem.range(headsUp, 1...Schedule.Timing.largestBufferMinutes, "\(field).arriveBy.headsUpMinutes")
                }
                if let percent = schedules[index].onTimePercent {
                    try DocumentProblem.range(percent, Schedule.onTimePercents, "\(field).arriveBy.onTimePercent")
                }
            }
        }
        var numbers = Set<Int>()
        for (index, pause) in (pauses ?? []).enumerated() {
            let field = "pauses[\(index)]"
            try DocumentProblem.range(pause.number, 1...Pause.largestNumber, "\(field).number")
            try DocumentProblem.check(numbers.insert(pause.number).inserted, "\(field).number repeats another pause's")
            try DocumentProblem.check(pause.from <= pause.until, "\(field) ends before it starts")
            try DocumentProblem.check(
                pause.until.dayNumber - pause.from.dayNumber < Pause.longestDays, "\(field) is longer than \(Pause.longestDays) days")
            if let reason = pause.reason {
                try DocumentProblem.check(reason.count <= Pause.longestReason && DisplayText.line(reason) == reason, "\(field).reason is not one short line")
            }
        }
    }
}

@_spi(Store)
extension PendingBook {
    public func validate() throws(DocumentProblem) {
        try DocumentProblem.range(cap, 1...FanOut.largestCap, "cap")
        try DocumentProblem.range(requested, 0...Int(Int32.max), "requested")
        for (list, entries) in [("requests", requests), ("deferred", deferred)] {
            for (index, entry) in entries.enumerated() {
                let field = "\(list)[\(index)]"
                try DocumentProblem.range(entry.hour, 0...23, "\(field).hour")
                try DocumentProblem.range(entry.minute, 0...59, "\(field).minute")
                try DocumentProblem.date(entry.nextFire, "\(field).nextFire")
            }
        }
    }
}

extension DocumentProblem {
    package static func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws(DocumentProblem) {
        guard condition else { throw DocumentProblem("impossible value: \(reason())") }
    }

    package static func range(_ value: Int, _ range: ClosedRange<Int>, _ field: @autoclosure () -> String) throws(DocumentProblem) {
        try check(range.contains(value), "\(field()) is \(value), outside \(range.lowerBound)–\(range.upperBound)")
    }

    package static func date(_ date: Date, _ field: String) throws(DocumentProblem) {
        try check(Route.representableDates.contains(date), "\(field) is outside the years 0000–9999")
    }
}
