@_spi(Store) import CommuteCore
import Foundation

/// An instant from an ISO 8601 literal with an offset; tests only.
func instant(_ text: String) -> Date {
    guard let date = ISO8601.parse(text)?.instant else { preconditionFailure("bad test timestamp \(text)") }
    return date
}

func zone(_ identifier: String) -> IANAZone {
    guard let zone = IANAZone(identifier: identifier) else { preconditionFailure("no zone \(identifier)") }
    return zone
}

/// The next fire as `2026-03-08T03:00:00-07:00` in the zone's own offset: easy to read in a failure.
func nextFire(_ weekday: Weekday, _ hour: Int, _ minute: Int, after now: String, in identifier: String) -> String {
    let calendar = ZonedCalendar(timeZone: zone(identifier), around: instant(now))
    let fire = calendar.nextFire(weekday: weekday, hour: hour, minute: minute, after: instant(now))
    return TimeFormatting.iso8601(fire, calendar: calendar)
}

func route(_ id: RouteID, _ name: String?, current: Int?, average: Int?, updated: String = "2025-11-04T16:00:00-08:00") -> Route {
    Route(id: id, name: name, description: name.map { "\($0) description" }, currentMinutes: current,
          averageMinutes: average, distanceMiles: 10, updatedAt: instant(updated))
}

/// The fixture in `Fixtures/wsdot/`, found from this file's place in the package.
let fixtureURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json")

/// An `AlertSender` that hands each send to a closure: tests see every message and choose the result.
struct ClosureSender: AlertSender {
    let body: (AlertMessage, Notifier) -> DeliveryResult

    init(_ body: @escaping (AlertMessage, Notifier) -> DeliveryResult) { self.body = body }

    func send(_ message: AlertMessage, through notifier: Notifier) -> DeliveryResult { body(message, notifier) }
}
