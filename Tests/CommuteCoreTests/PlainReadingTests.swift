import Basics
@_spi(Store) @testable import CommuteCore
@testable import CommuteModel
@_spi(Store) @testable import CommuteStore
import Foundation
import TestThreads
import Testing

/// `schedules.json` and `exports.json` are read with `JSONReader` in the shape this build writes,
/// and left to `Codable` otherwise: whatever the file, the two readings agree — the same document,
/// or the same problem named.
@Suite(.ownThreads) struct PlainReadingTests {
    let created = Date(timeIntervalSince1970: 1_762_300_800)

    func codable<T: VersionedDocument>(_ type: T.Type, _ data: Data) -> Result<T, DocumentProblem> {
        do {
            try T.checkVersion(data)
            let document = try StoreCoding.decoder.decode(T.self, from: data)
            try document.validate()
            return .success(document)
        } catch let problem as DocumentProblem {
            return .failure(problem)
        } catch let error as DecodingError {
            return .failure(DocumentProblem("wrong shape: \(StoreCoding.describe(error))"))
        } catch {
            return .failure(DocumentProblem("\(error)"))
        }
    }

    func read<T: VersionedDocument>(_ type: T.Type, _ data: Data) -> Result<T, DocumentProblem> {
        do { return .success(try T.decodeDocument(from: data)) } catch let problem as DocumentProblem { return .failure(problem) } catch {
            return .failure(DocumentProblem("\(error)"))
        }
    }

    @Test func schedulesReadAsCodableReadsThem() throws {
        var book = ScheduleBook(schedules: [
            Schedule(routeIDs: ["1", "96"], days: Weekday.weekdays, hour: 7, minute: 5, createdAt: created),
            Schedule(
                routeIDs: ["bus"], days: [.saturday, .sunday], hour: 9, minute: 0, isEnabled: false, createdAt: created.addingTimeInterval(0.25),
                onlyWhenDelayedBy: 5, onlyWhenAboveUsual: true, timing: .arriveBy(buffer: 5, headsUp: 10), notify: ["phone", "desk"]),
            Schedule(routeIDs: ["4"], days: [.monday], hour: 23, minute: 59, createdAt: created, timing: .arriveBy(buffer: 0, headsUp: nil)),
        ])
        book.pauses = [Pause(number: 1, from: CivilDate(year: 2025, month: 12, day: 24), until: CivilDate(year: 2026, month: 1, day: 2), reason: "holidays")]
        let written = Data(try book.encodeDocument())
        #expect(try ScheduleBook.decodeDocument(from: written) == book)
        #expect(read(ScheduleBook.self, written) == codable(ScheduleBook.self, written))

        let id = book.schedules[0].id.uuidString
        let odd = [
            // A repeated key, a number written 7.0, an unknown key, spaces, a null where a value may be.
            #"{"version":1,"schedules":[{"id":"\#(id)","id":"\#(id)","routeIDs":["1"],"days":[2],"hour":7,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z"}]}"#,
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":7.0,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z"}]}"#,
            #"{"version":1,"extra":{"a":[1]},"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":7,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00-08:00","arriveBy":null,"notify":null}]}"#,
            #"{ "version": 1, "schedules": [ { "id": "\#(id.lowercased())", "routeIDs": ["1"], "days": [2, 2], "hour": 7, "minute": 0, "isEnabled": true, "createdAt": "2025-11-05T00:00:00Z" } ] }"#,
            // Wrong: an hour of 99, a day of 9, a missing field, a bad date, a version 2, two schedules with one ID.
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":99,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z"}]}"#,
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[9],"hour":7,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z"}]}"#,
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z"}]}"#,
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":7,"minute":0,"isEnabled":true,"createdAt":"yesterday"}]}"#,
            #"{"version":2,"schedules":[]}"#,
            // --on-time: as written, as 95.0, out of range, and on a schedule at a fixed time.
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":9,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z","arriveBy":{"bufferMinutes":5,"onTimePercent":95}}]}"#,
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":9,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z","arriveBy":{"bufferMinutes":5,"onTimePercent":95.0}}]}"#,
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":9,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z","arriveBy":{"bufferMinutes":5,"onTimePercent":-7}}]}"#,
            #"{"version":1,"schedules":[{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":7,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z"},{"id":"\#(id)","routeIDs":["1"],"days":[2],"hour":8,"minute":0,"isEnabled":true,"createdAt":"2025-11-05T00:00:00Z"}]}"#,
        ]
        for text in odd {
            #expect(read(ScheduleBook.self, Data(text.utf8)) == codable(ScheduleBook.self, Data(text.utf8)), "\(text)")
        }
    }

    /// `status` counts the schedules its plan vouches for without building them: the same counts.
    @Test func theSummaryOfVouchedSchedulesIsTheBooks() throws {
        var book = ScheduleBook(schedules: (0..<30).map { index in
            Schedule(routeIDs: ["1"], days: [.monday], hour: 7, minute: index, isEnabled: index % 3 != 0, createdAt: created)
        })
        book.pauses = [Pause(number: 1, from: CivilDate(year: 2025, month: 12, day: 24), until: CivilDate(year: 2025, month: 12, day: 26))]
        let data = Data(try book.encodeDocument())
        #expect(ScheduleBook.summary(from: data) == ScheduleSummary(book))
        #expect(ScheduleBook.summary(from: data)?.enabled == 20)
        // A pause naming a schedule: read whole (its line names the schedule among all of them).
        book.pauses?.append(Pause(number: 2, from: CivilDate(year: 2025, month: 12, day: 24), until: CivilDate(year: 2025, month: 12, day: 26), scheduleID: book.schedules[4].id))
        #expect(ScheduleBook.summary(from: Data(try book.encodeDocument())) == nil)
        #expect(ScheduleSummary(book).schedules == book.schedules)
    }

    @Test func exportStateReadsAsCodableReadsIt() throws {
        var state = ExportState()
        var record = ExportState.Record()
        record.lastSuccessAt = created
        record.lastAttemptAt = created.addingTimeInterval(60)
        record.sent = ["traveltimes/route_1/state": "af63bd4c8601b7df", "homeassistant/sensor/x/config": "1"]
        state.records["mqtt"] = record
        var failing = ExportState.Record()
        failing.problem = "the broker refused: not authorized"
        failing.problemTold = true
        state.records["homeassistant-2"] = failing
        let written = Data(try state.encodeDocument())
        #expect(try ExportState.decodeDocument(from: written) == state)
        for text in [
            #"{"version":1,"records":{"ics":{"sent":{"a":"1","a":"2"}}}}"#,
            #"{"version":1,"records":{"ics":{"lastSuccessAt":"2025-11-05T00:00:00+01:00","sent":null,"other":[1,2]}}}"#,
            #"{"version":1,"records":{"ics":{"problem":"two\nlines"}}}"#,
            #"{"version":1,"records":{"no such id":{}}}"#,
            #"{"version":1,"records":{"ics":{"lastSuccessAt":"later"}}}"#,
            #"{"version":1,"records":{"ics":{"sent":{"a":1}}}}"#,
        ] {
            #expect(read(ExportState.self, Data(text.utf8)) == codable(ExportState.self, Data(text.utf8)), "\(text)")
        }
    }
}
