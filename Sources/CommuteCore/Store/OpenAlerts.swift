import FoundationEssentials

/// `alerts.json`: the notifications out there that may still change — each alert's key, the
/// notifier it went to, the handle the channel gave it, and when it is over. `tick` reads it every
/// minute (it is small: the alerts of the last few hours) to clear what is over and to revise a
/// heads-up whose leave time moved; absent when nothing is open. Belongs to the notification side:
/// written under the pending lock, with the ledger that records each decision.
public struct OpenAlerts: VersionedDocument, Equatable {
    public var version: Int
    public var alerts: [Alert]

    /// One alert on one notifier.
    public struct Alert: Codable, Sendable, Equatable {
        /// The alert's key: one per occurrence (`AlertKey`).
        public var key: String
        public var notifier: Int
        /// The channel's name for it; nil where the channel gives none (stdout, a program, Slack).
        public var handle: String?
        /// The request whose words it shows now (a heads-up, then its leave alert).
        public var requestID: String
        /// The occurrence: the fire time, or an arrive-by alert's arrival.
        public var occurrence: Date
        /// When it is over and is cleared; nil while it must stay (an open health problem).
        public var clearAt: Date?
        /// An arrive-by alert's leave time as it said it: a heads-up is revised when the leave
        /// time moves by `AlertKey.materialMove` or more.
        public var leave: Date?
        /// Whether it is a heads-up, which the leave alert replaces.
        public var isHeadsUp: Bool
        /// Why a revision is held back (quiet hours), once ledgered.
        public var held: String?
        /// Failed clears so far: after `OpenAlerts.clearAttempts`, it is given up.
        public var clearFailures: Int?
        /// The process revising it now (`Claimant`): a revision is claimed as a first send is, so
        /// that two ticks at once never both send it.
        public var revising: String?

        public init(
            key: String, notifier: Int, handle: String?, requestID: String, occurrence: Date, clearAt: Date?, leave: Date? = nil,
            isHeadsUp: Bool = false
        ) {
            self.key = key
            self.notifier = notifier
            self.handle = handle
            self.requestID = requestID
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

    /// The alert with this key on this notifier.
    public func alert(_ key: String, notifier: Int) -> Alert? {
        alerts.last { $0.key == key && $0.notifier == notifier }
    }

    /// Takes out the alert with this key on this notifier.
    public mutating func remove(_ key: String, notifier: Int) {
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
            try DocumentProblem.check(alert.key.count <= 200 && DisplayText.line(alert.key) == alert.key, "\(field).key is not one short line")
            try DocumentProblem.check(alert.requestID.count <= 200 && DisplayText.line(alert.requestID) == alert.requestID, "\(field).requestID is not one short line")
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
        }
    }
}

/// The key of an alert: one per occurrence, built from the identifier prefixes the product
/// already uses, so that later alerts of the same occurrence find the notification to change.
public enum AlertKey {
    /// A leave time that moves by this much or more is news (the heads-up is revised).
    public static let materialMove: TimeInterval = 180

    /// `schedule.<id>.weekday.<n>@2025-11-04T15:00:00Z`: a scheduled alert and its heads-up share
    /// one key (the occurrence is the arrival for arrive-by). `watch.<route>@2025-11-04`: a watch's
    /// "over" and "cleared" share one per route and local day. `health.<kind>@<found>`: a health
    /// problem and its "mended".
    public static func key(requestID: String, occurrence: Date, calendar: ZonedCalendar) -> String {
        if requestID.hasPrefix(Commute.WatchEvent.prefix) {
            var route = requestID.dropFirst(Commute.WatchEvent.prefix.count)
            for suffix in [".over", ".clear"] where route.hasSuffix(suffix) { route = route.dropLast(suffix.count) }
            let day = calendar.local(occurrence).date
            return "\(Commute.WatchEvent.prefix)\(route)@" + String(cFormat: "%04d-%02d-%02d", day.year, day.month, day.day)
        }
        var base = Substring(requestID)
        for suffix in [TriggerRequest.headsUpSuffix, ".mended"] where base.hasSuffix(suffix) { base = base.dropLast(suffix.count) }
        return "\(base)@\(ISO8601.string(occurrence))"
    }
}
