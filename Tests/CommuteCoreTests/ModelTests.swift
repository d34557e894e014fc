@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct LabelTests {
    @Test(arguments: [
        (Set(Weekday.allCases), "Every day"),
        (Weekday.weekdays, "Weekdays"),
        (Weekday.weekend, "Weekends"),
        ([.monday, .wednesday, .friday], "Mon, Wed, Fri"),
        ([.sunday, .monday], "Mon, Sun"),
        ([.saturday], "Sat"),
        ([.monday, .tuesday, .wednesday, .thursday, .friday, .saturday], "Mon, Tue, Wed, Thu, Fri, Sat"),
    ] as [(Set<Weekday>, String)])
    func daysLabel(days: Set<Weekday>, label: String) {
        #expect(Schedule.daysLabel(days) == label)
    }

    @Test(arguments: [(7, 0, "7:00 AM"), (16, 30, "4:30 PM"), (0, 5, "12:05 AM"), (12, 0, "12:00 PM"), (23, 59, "11:59 PM")])
    func timeLabel(hour: Int, minute: Int, label: String) {
        #expect(TimeOfDay(hour: hour, minute: minute).label == label)
    }

    @Test func spokenLabelAndPresets() {
        let morning = Schedule.preset(.morning, routeIDs: ["1", "96", "4"], createdAt: Date(timeIntervalSince1970: 0))
        #expect(morning.spokenLabel
            == "Enabled notification at 7:00 AM, Monday, Tuesday, Wednesday, Thursday, Friday, 3 routes")
        #expect(morning.daysLabel == "Weekdays")
        var evening = Schedule.preset(.evening, routeIDs: ["1"], createdAt: Date(timeIntervalSince1970: 0))
        #expect(evening.timeLabel == "4:30 PM")
        evening.isEnabled = false
        #expect(evening.spokenLabel.hasPrefix("Disabled notification at 4:30 PM, Monday,"))
        #expect(evening.spokenLabel.hasSuffix(", 1 route"))
    }

    @Test func validationSaysExactlyWhatIsMissing() {
        let base = Schedule(routeIDs: ["1"], days: [.monday], hour: 7, minute: 0, createdAt: Date())
        var noRoutes = base
        noRoutes.routeIDs = []
        #expect(throws: ModelError.noRoutes) { try noRoutes.validate() }
        #expect(ModelError.noRoutes.description == "No route given: name one or more with --route ID (or --route 1,4), as `traveltimes routes` lists them")
        var noDays = base
        noDays.days = []
        #expect(throws: ModelError.noDays) { try noDays.validate() }
        #expect(ModelError.noDays.description == "No day given: use --days weekdays, weekends, daily, or day names such as mon,wed,fri")
        var badHour = base
        badHour.hour = 24
        #expect(throws: ModelError.self) { try badHour.validate() }
        #expect(throws: Never.self) { try base.validate() }
    }
}

@Suite(.ownThreads) struct ParsingTests {
    @Test(arguments: [
        ("7:00", 7, 0), ("07:00", 7, 0), ("16:30", 16, 30), ("7:00am", 7, 0), ("4:30 PM", 16, 30),
        ("12:05 AM", 0, 5), ("12:00pm", 12, 0), ("7am", 7, 0), ("0:00", 0, 0), ("23:59", 23, 59), (" 9:15 ", 9, 15),
        ("11:45 p.m.", 23, 45),
    ])
    func acceptedTimes(text: String, hour: Int, minute: Int) throws {
        #expect(try ScheduleParsing.time(text) == TimeOfDay(hour: hour, minute: minute))
    }

    @Test(arguments: ["24:00", "7:60", "13:00 PM", "0:30am", "7", "7:5", "", "seven", "7:00:00", "-1:00", "7:00xm", "7::00"])
    func refusedTimesQuoteTheValue(text: String) {
        #expect(throws: ModelError.badTime(text)) { try ScheduleParsing.time(text) }
        #expect(ModelError.badTime(text).description.contains("'\(text)'"))
    }

    @Test func days() throws {
        #expect(try ScheduleParsing.days("weekdays") == Weekday.weekdays)
        #expect(try ScheduleParsing.days("WEEKENDS") == Weekday.weekend)
        #expect(try ScheduleParsing.days("daily") == Set(Weekday.allCases))
        #expect(try ScheduleParsing.days("mon,wed,fri") == [.monday, .wednesday, .friday])
        #expect(try ScheduleParsing.days("Monday, tue , SUN") == [.monday, .tuesday, .sunday])
        #expect(try ScheduleParsing.days("thurs") == [.thursday])
        #expect(throws: ModelError.badDay("funday")) { try ScheduleParsing.days("mon,funday") }
        #expect(throws: ModelError.badDay("mon,,tue")) { try ScheduleParsing.days("mon,,tue") }
        #expect(throws: ModelError.noDays) { try ScheduleParsing.days("") }
        #expect(throws: ModelError.noDays) { try ScheduleParsing.days("  ") }
        #expect(try ScheduleParsing.days("weekdays,sat") == Weekday.weekdays.union([.saturday]))
        #expect(try ScheduleParsing.days("weekends, fri") == [.friday, .saturday, .sunday])
    }

    @Test func routeIDsAndThresholds() throws {
        #expect(try ScheduleParsing.routeID("96") == "96")
        #expect(try ScheduleParsing.routeID("007") == "7")
        #expect(try ScheduleParsing.routeID("home-work") == "home-work")
        #expect(try ScheduleParsing.routeID(" a1 ") == "a1")
        #expect(throws: ModelError.badRouteID("Home")) { try ScheduleParsing.routeID("Home") }
        #expect(throws: ModelError.badRouteID("home-")) { try ScheduleParsing.routeID("home-") }
        #expect(throws: ModelError.badRouteID("a_b")) { try ScheduleParsing.routeID("a_b") }
        #expect(throws: ModelError.badRouteID("-1")) { try ScheduleParsing.routeID("-1") }
        #expect(throws: ModelError.badRouteID("")) { try ScheduleParsing.routeID("") }
        #expect(try ScheduleParsing.threshold("10") == 10)
        #expect(try ScheduleParsing.threshold("10m") == 10)
        #expect(try ScheduleParsing.threshold("off") == nil)
        #expect(throws: ModelError.badThreshold("0")) { try ScheduleParsing.threshold("0") }
    }
}

@Suite(.ownThreads) struct RouteTests {
    @Test(arguments: [
        (30, 30, DelayStatus.clear, 0), (25, 30, .clear, -5), (31, 30, .slowing, 1), (35, 30, .slowing, 5),
        (36, 30, .congested, 6), (49, 30, .congested, 19),
    ])
    func delayStatus(current: Int, average: Int, status: DelayStatus, delay: Int) {
        let route = route("1", "A", current: current, average: average)
        #expect(route.status == status)
        #expect(route.delayMinutes == delay)
    }

    @Test func zeroOrLessMeansNoDataNeverZeroMinutes() {
        for (current, average) in [(0, 0), (30, 0), (0, 30), (-1, 30), (30, -5)] {
            let route = route("39", "Everett-Seattle EL", current: current, average: average)
            #expect(route.status == .noData)
            #expect(route.delayMinutes == nil)
            #expect(AlertComposer.line(routeID: "39", route: route) == "Everett-Seattle EL: no data (NO DATA)")
        }
    }

    @Test func aRouteWithoutANameShowsItsDescription() {
        let unnamed = Route(id: "7", name: nil, description: "Everett to Seattle", currentMinutes: 1, averageMinutes: 1, updatedAt: Date())
        #expect(unnamed.name == "Everett to Seattle")
        let bare = Route(id: "7", name: "", description: nil, currentMinutes: 1, averageMinutes: 1, updatedAt: Date())
        #expect(bare.name == "Route 7")
    }
}

@Suite(.ownThreads) struct QuietHoursTests {
    @Test func windowsMayWrapPastMidnight() throws {
        let night = try QuietHours("22:00-06:00")
        #expect(night.contains(TimeOfDay(hour: 23, minute: 0)) && night.contains(TimeOfDay(hour: 0, minute: 0)))
        #expect(night.contains(TimeOfDay(hour: 5, minute: 59)) && !night.contains(TimeOfDay(hour: 6, minute: 0)))
        #expect(!night.contains(TimeOfDay(hour: 21, minute: 59)) && night.contains(TimeOfDay(hour: 22, minute: 0)))
        let lunch = try QuietHours("12:00-1:30 PM")
        #expect(lunch.contains(TimeOfDay(hour: 13, minute: 0)) && !lunch.contains(TimeOfDay(hour: 13, minute: 30)))
        #expect(throws: ModelError.self) { try QuietHours("10:00-10:00") }
        #expect(throws: ModelError.self) { try QuietHours("soon") }
    }
}
