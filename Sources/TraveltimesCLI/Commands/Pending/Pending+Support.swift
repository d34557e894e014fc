import CommuteCore
import FoundationEssentials


/// `pending --json`: a public contract.
struct PendingJSON: Encodable {
    struct Item: EveryKeyEncodable {
        var id: String
        var scheduleID: String
        var weekday: Int
        var hour: Int
        var minute: Int
        var nextFire: String
        var title: String
        var body: String
        /// An arrive-by alert's arrival (`nextFire` is when to leave); null for a fixed time.
        var arriveBy: String?
    }

    var cap: Int
    var requested: Int
    var requests: [Item]
    var deferred: [Item]
    /// The pauses in force: the alerts they hold back are not in `requests` or `deferred`.
    var pauses: [PauseJSON]

    init(_ report: Schedules.PendingReport, calendar: ZonedCalendar) {
        func item(_ pending: Schedules.PendingItem) -> Item {
            let request = pending.request
            return Item(
                id: request.id.description, scheduleID: request.scheduleID.lowercasedString, weekday: request.weekday.rawValue,
                hour: request.hour, minute: request.minute,
                nextFire: TimeFormatting.iso8601(request.nextFire, calendar: calendar), title: pending.content?.title ?? "",
                body: pending.content?.body ?? "", arriveBy: request.arrival.map { TimeFormatting.iso8601($0, calendar: calendar) })
        }
        cap = report.cap
        requested = report.requested
        requests = report.requests.map(item)
        deferred = report.deferred.map(item)
        pauses = report.pauses.map(PauseJSON.init)
    }
}
