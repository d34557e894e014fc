import CommuteCore
import Foundation

// 2h. Calendars (issue 38): a 5 MB calendar of 10,000 events — a year of meetings with
// descriptions and attendees, one in ten a weekly series, in Outlook's and IANA zones — read in
// process (the median of the runs; target ≤ 100 ms) and by `calendar events` (peak memory; ≤ 30
// MiB); and hostile calendars (a fold 600,000 lines long, nesting, a rule of every second, a daily
// series since the year 1) each at most 100 MiB.
@MainActor
func benchCalendars() {
    let directory = home + "-calendars"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//traveltimes//bench//EN\r\n"
    let zones = ["America/Los_Angeles", "Pacific Standard Time", "Europe/Berlin", "W. Europe Standard Time"]
    let attendees = (0..<4).map { "ATTENDEE;CN=Person \($0);ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:person\($0)@example.com\r\n" }.joined()
    let description = "DESCRIPTION:" + String(repeating: "Agenda item\\, notes and a link to the document. ", count: 2) + "\r\n"
    for index in 0..<10_000 {
        let day = CivilDate(dayNumber: CivilDate(year: 2025, month: 6, day: 1).dayNumber + index % 365)
        let hour = 8 + index % 9
        let start = String(format: "%04d%02d%02dT%02d%02d00", day.year, day.month, day.day, hour, index % 4 * 15)
        let end = String(format: "%04d%02d%02dT%02d%02d00", day.year, day.month, day.day, hour + 1, index % 4 * 15)
        let zone = zones[index % zones.count]
        text += "BEGIN:VEVENT\r\nUID:event-\(index)@example.com\r\nDTSTAMP:20250601T000000Z\r\n"
        text += "DTSTART;TZID=\(zone):\(start)\r\nDTEND;TZID=\(zone):\(end)\r\n"
        if index % 10 == 0 { text += "RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n" }
        text += "SUMMARY:Meeting \(index)\r\nLOCATION:Room \(index % 40)\r\n" + description + attendees + "END:VEVENT\r\n"
    }
    text += "END:VCALENDAR\r\n"
    let path = directory + "/big.ics"
    let data = Data(text.utf8)
    _ = FileManager.default.createFile(atPath: path, contents: data)
    let from = Int(capturedAt.timeIntervalSince1970)
    var times: [Double] = []
    var found = 0
    for _ in 0..<max(options.runs, 5) {
        let start = DispatchTime.now().uptimeNanoseconds
        found = (try? CalendarEvents.expand(data, from: from, until: from + 14 * 86_400, zone: zone).occurrences.count) ?? -1
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let read = median(times)
    report(String(format: "reading a %.1f MB calendar of 10,000 events (%d in 14 days)", Double(data.count) / 1e6, found), milliseconds(read),
           "target ≤ 100 ms", read <= 0.1)
    var calendarEnvironment = environment
    calendarEnvironment["TRAVELTIMES_HOME"] = directory + "/store"
    must(["refresh", "--source", options.fixture, "--now", now], environment: calendarEnvironment)
    must(["calendar", "add", "big", "--ics", path, "--route", "1", "--now", now], environment: calendarEnvironment)
    let (events, _) = measure(options, options.binary, ["calendar", "events", "big", "--now", now], environment: calendarEnvironment)
    let peak = peakMemory(options.binary, ["calendar", "events", "big", "--now", now], environment: calendarEnvironment)
    report("traveltimes calendar events, that calendar", milliseconds(events), "\(mebibytes(peak)); target ≤ 30 MiB", Double(peak ?? .max) / 1024 <= 30)
    let (refresh, _) = measure(options, options.binary, ["refresh", "--source", options.fixture, "--quiet", "--now", now], environment: calendarEnvironment)
    report("traveltimes refresh, the feed and that calendar", milliseconds(refresh), "peak \(mebibytes(peakMemory(options.binary, ["refresh", "--source", options.fixture, "--quiet", "--now", now], environment: calendarEnvironment)))", nil)
    let head = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20251105T170000Z\r\n"
    let hostile: [(String, String)] = [
        ("a fold 600,000 lines long", head + "SUMMARY:x" + String(repeating: "\r\n y", count: 600_000) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
        ("100,000 nested components", "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X\r\n", count: 100_000) + "END:VCALENDAR\r\n"),
        ("a rule of every second and a daily series since the year 1",
         head + "RRULE:FREQ=SECONDLY\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART:00010101T170000Z\r\nRRULE:FREQ=DAILY;COUNT=1000000\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:c\r\nDTSTART:20251105T170000Z\r\nRRULE:FREQ=DAILY;BYHOUR=" + (0..<24).map(String.init).joined(separator: ",")
            + ";BYMINUTE=" + (0..<60).map(String.init).joined(separator: ",") + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
    ]
    for (index, (label, body)) in hostile.enumerated() {
        let file = directory + "/hostile-\(index).ics"
        _ = FileManager.default.createFile(atPath: file, contents: Data(body.utf8))
        var hostileEnvironment = calendarEnvironment
        hostileEnvironment["TRAVELTIMES_HOME"] = directory + "/hostile-\(index)"
        let start = DispatchTime.now().uptimeNanoseconds
        let peak = peakMemory(options.binary, ["calendar", "add", "h", "--ics", file, "--skip", "--now", now], environment: hostileEnvironment)
        let time = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        report("traveltimes calendar add, \(label)", milliseconds(time), "\(mebibytes(peak)); target ≤ 100 MiB", Double(peak ?? .max) / 1024 <= 100)
    }
}
