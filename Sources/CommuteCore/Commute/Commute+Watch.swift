import Foundation

extension Commute {
    /// One watch alert decision.
    public struct WatchEvent: Sendable, Equatable {
        public enum Direction: String, Sendable { case over, clear }

        public var routeID: String
        public var direction: Direction
        public var message: AlertMessage
        /// Nil when sent through every notifier; otherwise why it was held back or failed.
        public var problem: String?
    }

    /// After a successful refresh: compares each watched route with its threshold, and sends one
    /// critical alert when it crosses (and one when it clears) — at most once per route per
    /// direction per local day, at most `Configuration.criticalDailyCap` a day, quiet hours or not.
    /// A route without data never alerts. Every decision goes in the ledger.
    public func checkWatches(
        routes: [String: Route], notifiers: [Notifier], send: (AlertMessage, Notifier) -> String?
    ) throws -> [WatchEvent] {
        var crossings: [(DelayWatch, Route, WatchEvent.Direction)] = []
        try store.updateConfiguration { configuration in
            guard var watches = configuration.watches else { return }
            for index in watches.indices {
                let watch = watches[index]
                guard let route = routes[watch.routeID], let delay = route.delayMinutes else { continue }
                let over = delay >= watch.overMinutes
                watches[index].isOver = over
                // A first look that finds the route already over is news; a first clear is not.
                switch (watch.isOver, over) {
                case (nil, true), (false, true): crossings.append((watch, route, .over))
                case (true, false): crossings.append((watch, route, .clear))
                default: break
                }
            }
            configuration.watches = watches
        }
        var events: [WatchEvent] = []
        for (watch, route, direction) in crossings {
            let id = "watch.\(watch.routeID).\(direction.rawValue)"
            let usual = route.averageMinutes.map { " (usually \($0))" } ?? ""
            let title = direction == .over
                ? "\(route.name) is running \(TimeFormatting.delay(route.delayMinutes ?? 0))\(usual)"
                : "\(route.name) has cleared: \(route.currentMinutes.map { "\($0) min" } ?? "no data")\(usual)"
            let message = AlertMessage(
                id: id, title: title, body: AlertComposer.line(routeID: route.id, route: route), urgency: "critical")
            let today = calendar.local(now).date
            let refusal: String? = try store.updateLedger { _, ledger in
                let sentToday = ledger.entries.filter {
                    $0.requestID.hasPrefix("watch.") && $0.outcome == .delivered && calendar.local($0.at).date == today
                }
                var reason: String?
                if sentToday.contains(where: { $0.requestID == id }) {
                    reason = "already alerted today (\(direction.rawValue))"
                } else if Set(sentToday.map(\.requestID)).count >= Configuration.criticalDailyCap {
                    reason = "daily cap of \(Configuration.criticalDailyCap) critical alerts reached"
                }
                if let reason {
                    ledger.entries.append(.init(requestID: id, occurrence: now, notifier: nil, outcome: .suppressed, at: now, reason: reason))
                }
                return reason
            }
            if let refusal {
                events.append(WatchEvent(routeID: watch.routeID, direction: direction, message: message, problem: refusal))
                continue
            }
            var failures: [String] = []
            var outcomes: [(Int, String?)] = []
            for notifier in notifiers {
                let failure = send(message, notifier)
                outcomes.append((notifier.id, failure))
                if let failure { failures.append(failure) }
            }
            try store.updateLedger { _, ledger in
                for (notifier, failure) in outcomes {
                    ledger.entries.append(.init(
                        requestID: id, occurrence: now, notifier: notifier, outcome: failure == nil ? .delivered : .failed, at: now,
                        attempts: 1, reason: failure))
                }
            }
            events.append(WatchEvent(
                routeID: watch.routeID, direction: direction, message: message,
                problem: failures.isEmpty ? nil : failures.joined(separator: "; ")))
        }
        return events
    }
}
