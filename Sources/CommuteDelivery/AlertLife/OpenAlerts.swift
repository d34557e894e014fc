import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `alerts.json`: the notifications out there that may still change — each alert's key, the
/// notifier it went to, the handle the channel gave it, and when it is over. `tick` reads it every
/// minute (it is small: the alerts of the last few hours) to clear what is over and to revise a
/// heads-up whose leave time moved; absent when nothing is open. Belongs to the notification side:
/// written under the pending lock, with the ledger that records each decision.
public struct OpenAlerts: StoreDocument, Equatable {
    public static let fileName = "alerts.json"
    public static let domain = StoreDomain.pending

    public var version: Int
    public var alerts: [Alert]

    /// One alert on one notifier.
    public struct Alert: Codable, Sendable, Equatable {
        /// The notification's key: one per occurrence.
        public var key: AlertKey
        public var notifier: Int
        /// The channel's name for it; nil where the channel gives none (stdout, a program, Slack).
        public var handle: String?
        /// The alert whose words it shows now (a heads-up, then its leave alert).
        public var alert: AlertID
        /// The occurrence: the fire time, or an arrive-by alert's arrival.
        public var occurrence: Date
        /// When it is over and is cleared; nil while it must stay (an open health problem).
        public var clearAt: Date?
        /// An arrive-by alert's leave time as it said it: a heads-up is revised when the leave
        /// time moves by `AlertKey.materialMove` or more.
        public var leave: Date?
        /// Whether it is a heads-up, which the leave alert replaces.
        public var isHeadsUp: Bool
        /// Why a revision is held back, once ledgered.
        public var held: HoldReason?
        /// Failed clears so far: after `OpenAlerts.clearAttempts`, it is given up.
        public var clearFailures: Int?
        /// The process revising it now (`Claimant`): a revision is claimed as a first send is, so
        /// that two ticks at once never both send it.
        public var revising: String?
        /// A leave alert's transit trip, followed until its line leaves (`FollowedTrip`).
        public var follow: FollowedTrip?

        private enum CodingKeys: String, CodingKey {
            case key, notifier, handle, alert = "requestID", occurrence, clearAt, leave, isHeadsUp, held, clearFailures, revising, follow
        }

        public init(
            key: AlertKey, notifier: Int, handle: String?, alert: AlertID, occurrence: Date, clearAt: Date?, leave: Date? = nil,
            isHeadsUp: Bool = false
        ) {
            self.key = key
            self.notifier = notifier
            self.handle = handle
            self.alert = alert
            self.occurrence = occurrence
            self.clearAt = clearAt
            self.leave = leave
            self.isHeadsUp = isHeadsUp
        }
    }

    public init(alerts: [Alert] = []) {
        version = Self.currentVersion
        self.alerts = alerts
    }

    public static var empty: OpenAlerts { OpenAlerts() }

    /// A clear that failed this many times is given up, and said so in the ledger.
    public static let clearAttempts = 5
    /// At most this many open alerts are kept (the oldest go first): a bound on a file read every minute.
    public static let largest = 2_000

    /// A leave time that moves by this much or more is news (the heads-up is revised).
    public static let materialMove: TimeInterval = 180

    /// The alert with this key on this notifier.
    public func alert(_ key: AlertKey, notifier: Int) -> Alert? {
        alerts.last { $0.key == key && $0.notifier == notifier }
    }

    /// Takes out the alert with this key on this notifier.
    public mutating func remove(_ key: AlertKey, notifier: Int) {
        alerts.removeAll { $0.key == key && $0.notifier == notifier }
    }

    /// Puts `alert` in place of the one with its key and notifier.
    public mutating func put(_ alert: Alert) {
        remove(alert.key, notifier: alert.notifier)
        alerts.append(alert)
        if alerts.count > Self.largest { alerts.removeFirst(alerts.count - Self.largest) }
    }

    public func validate() throws(DocumentProblem) {
        try DocumentProblem.check(alerts.count <= Self.largest, "alerts holds more than \(Self.largest) alerts")
        for (index, alert) in alerts.enumerated() {
            let field = "alerts[\(index)]"
            if let handle = alert.handle {
                try DocumentProblem.check(handle.count <= 1_000 && DisplayText.line(handle) == handle, "\(field).handle is not one short line")
            }
            try DocumentProblem.range(alert.notifier, 0...Notifier.largestID, "\(field).notifier")
            try DocumentProblem.date(alert.occurrence, "\(field).occurrence")
            if let clearAt = alert.clearAt { try DocumentProblem.date(clearAt, "\(field).clearAt") }
            if let leave = alert.leave { try DocumentProblem.date(leave, "\(field).leave") }
            if let failures = alert.clearFailures { try DocumentProblem.range(failures, 0...Self.clearAttempts, "\(field).clearFailures") }
            if let revising = alert.revising {
                try DocumentProblem.check(revising.count <= 100 && DisplayText.line(revising) == revising, "\(field).revising is not one short line")
            }
            if let follow = alert.follow { try follow.validate(field: "\(field).follow") }
        }
    }
}

extension FollowedTrip {
    func validate(field: String) throws(DocumentProblem) {
        try DocumentProblem.check(run.trip.count <= TransitRun.longestTrip && DisplayText.line(run.trip) == run.trip, "\(field).run.trip is not one short line")
        try DocumentProblem.check(service.count <= 300 && DisplayText.line(service) == service, "\(field).service is not one short line")
        try DocumentProblem.check(itinerary.map(TransitDeparture.isItineraryID) ?? true, "\(field).itinerary is not an itinerary's ID")
        try DocumentProblem.check(RouteID(validating: route.description) != nil, "\(field).route is not a route's ID")
        for date in [run.scheduled, boarding, arrival, leave, deadline, checkedAt] {
            try DocumentProblem.date(date, field)
        }
        try DocumentProblem.range(requests, 0...Self.largestRequestCount + 2, "\(field).requests")
        try DocumentProblem.range(followUps, 0...100, "\(field).followUps")
        for (name, text) in [("stopped", stopped), ("said", said)] {
            if let text { try DocumentProblem.check(text.count <= 600 && DisplayText.line(text) == text, "\(field).\(name) is not one short line") }
        }
    }
}
