@_spi(Store) import CommuteDelivery
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteHistory
@_spi(Store) import CommuteSources

extension Alerts {
    /// One watch alert decision.
    public struct WatchEvent: Sendable, Equatable {
        public typealias Direction = WatchDirection

        public var routeID: RouteID
        public var direction: Direction
        public var message: AlertMessage
        public var outcome: Outcome

        /// What became of the alert.
        public enum Outcome: Sendable, Equatable {
            /// Sent through every notifier.
            case sent
            /// Not sent, and why (it is in the ledger as suppressed).
            case heldBack(Refusal)
            /// Some notifiers failed: each one's reason.
            case failed([String])
        }

        /// Why a watch alert is not sent.
        public enum Refusal: Sendable, Equatable, CustomStringConvertible {
            /// This very alert (this route, this direction) went out today already.
            case alreadySentToday(Direction)
            /// `Configuration.criticalDailyCap` delay alerts went out today.
            case dailyCapReached
            /// A clearing answers its delay alert only if that went out.
            case nothingToClear
            /// A clearing is not urgent: it waits out quiet hours.
            case quietHours(QuietHours)

            public var description: String {
                switch self {
                case .alreadySentToday(let direction): "already alerted today (\(direction.rawValue))"
                case .dailyCapReached: "daily cap of \(Configuration.criticalDailyCap) critical alerts reached"
                case .nothingToClear: "its delay alert was not delivered, so there is nothing to clear"
                case .quietHours(let window): "quiet hours (\(window))"
                }
            }
        }

        /// Why it was held back or failed, as `refresh` says it; nil when sent.
        public var problem: String? {
            switch outcome {
            case .sent: nil
            case .heldBack(let refusal): refusal.description
            case .failed(let reasons): reasons.joined(separator: "; ")
            }
        }
    }

    /// After a successful refresh: compares each watched route with its threshold. A crossing over
    /// it is critical: sent at once, quiet hours or not, at most once per route per local day and
    /// at most `Configuration.criticalDailyCap` a day. Its clearing is news, not urgent: sent at
    /// normal urgency, held in quiet hours, once per route per day — and only when the "over" alert
    /// it answers was delivered. A route without data never alerts. Every decision goes in the
    /// ledger; every alert goes out through `deliver`, as scheduled ones do.
    public func checkWatches(
        routes: [RouteID: Route], notifiers: [Notifier], quietHours: QuietHours? = nil, sender: some AlertSender
    ) throws -> [WatchEvent] {
        var crossings: [(DelayWatch, Route, WatchEvent.Direction)] = []
        // Routes that stay on the side they were: an alert about that side that failed is sent
        // again to the notifiers that failed, as a scheduled alert's is.
        var staying: [(DelayWatch, Route, WatchEvent.Direction)] = []
        try store.updateConfiguration { configuration in
            guard var watches = configuration.watches else { return }
            for index in watches.indices {
                let watch = watches[index]
                guard let route = routes[watch.routeID], route.delayMinutes != nil else { continue }
                let over = commute.history.isDelayed(route, minutes: watch.overMinutes, aboveUsual: watch.overUsual == true, at: route.updatedAt)
                watches[index].isOver = over
                // A first look that finds the route already over is news; a first clear is not.
                switch (watch.isOver, over) {
                case (nil, true), (false, true): crossings.append((watch, route, .over))
                case (true, false): crossings.append((watch, route, .clear))
                case (true, true): staying.append((watch, route, .over))
                case (false, false): staying.append((watch, route, .clear))
                default: break
                }
            }
            configuration.watches = watches
        }
        guard !crossings.isEmpty || !staying.isEmpty else { return [] }

        var events: [WatchEvent] = []
        var retried: [(DelayWatch, Route, WatchEvent.Direction)] = []
        let deliveries: [Delivery] = try store.updateLedger(keepingSince: ledgerHorizon) { ledger in
            var deliveries: [Delivery] = []
            for (watch, route, direction) in staying {
                let message = watchMessage(route, direction)
                let claims = retries(of: message.id, notifiers: Notifier.chosen(watch.notify, from: notifiers), ledger: ledger)
                guard !claims.isEmpty else { continue }
                retried.append((watch, route, direction))
                for claim in claims {
                    ledger.claim(claim, at: now)
                    deliveries.append(Delivery(claim: claim, message: message, note: nil))
                }
            }
            for (watch, route, direction) in crossings {
                let message = watchMessage(route, direction)
                let occurrence = Occurrence(message.id, at: now)
                if let refusal = refusal(of: direction, routeID: watch.routeID, id: message.id, quietHours: quietHours, ledger: ledger) {
                    ledger.decide(occurrence, .suppressed, reason: refusal.description, at: now)
                    events.append(WatchEvent(routeID: watch.routeID, direction: direction, message: message, outcome: .heldBack(refusal)))
                    continue
                }
                for notifier in Notifier.chosen(watch.notify, from: notifiers) {
                    let claim = Claim(occurrence: occurrence, notifier: notifier, attempt: 1, isResend: false)
                    ledger.claim(claim, at: now)
                    deliveries.append(Delivery(claim: claim, message: message, note: nil))
                }
            }
            return deliveries
        }
        guard !deliveries.isEmpty || !events.isEmpty else { return [] }
        let sent = try deliver(deliveries, sender: sender)
        for (watch, route, direction) in crossings + retried where !events.contains(where: { $0.routeID == watch.routeID }) {
            let message = watchMessage(route, direction)
            let failures = sent.filter { $0.delivery.message.id == message.id }.compactMap(\.result.failure)
            events.append(WatchEvent(
                routeID: watch.routeID, direction: direction, message: message,
                outcome: failures.isEmpty ? .sent : .failed(failures)))
        }
        return events
    }

    /// The notifiers the latest watch alert `id` of today failed on (or whose claim a dead tick
    /// left), to be sent again; none once it went out, or when it was held back.
    private func retries(of id: AlertID, notifiers: [Notifier], ledger: DeliveryLedger) -> [Claim] {
        let today = calendar.local(now).date
        let history = ledger.entries.filter { $0.alert == id && $0.action == nil && calendar.local($0.occurrence).date == today }
        guard let latest = history.map(\.occurrence).max() else { return [] }
        let occurrence = history.filter { $0.occurrence == latest }
        guard !occurrence.contains(where: { $0.notifier == nil }) else { return [] }
        return notifiers.compactMap { notifier in
            let attempts = occurrence.filter { $0.notifier == notifier.id }
            guard let last = attempts.last else { return nil }
            guard last.outcome == .failed || last.isAbandoned(now: now) else { return nil }
            return Claim(
                occurrence: Occurrence(id, at: latest), notifier: notifier, attempt: attempts.count + 1,
                isResend: last.outcome == .claimed, reached: last.handle)
        }
    }

    /// `watch.<route>.over` or `.clear`, with its words.
    private func watchMessage(_ route: Route, _ direction: WatchEvent.Direction) -> AlertMessage {
        let usual = route.averageMinutes.map { " (usually \($0))" } ?? ""
        var title = direction == .over
            ? "\(route.name) is running \(TimeFormatting.delay(route.delayMinutes ?? 0))\(usual)"
            : "\(route.name) has cleared: \(route.currentMinutes.map { "\($0) min" } ?? "no data")\(usual)"
        // A transit route's news is its bus: cancelled, or late.
        if direction == .over, let next = route.transit?.next(at: route.updatedAt), let planned = next.planned {
            let time = calendar.local(planned.scheduled).time.label
            title = next.plannedIsLost
                ? "\(route.name): the \(time) \(TransitText.service(planned)) is cancelled (\(TimeFormatting.delay(next.delayMinutes)) to arrive)"
                : "\(route.name): the \(time) \(TransitText.service(planned)) is running \(TimeFormatting.delay(next.delayMinutes))"
        }
        var body = AlertComposer.line(routeID: route.id, route: route, at: route.updatedAt, calendar: calendar)
        if let age = AlertComposer.ageLine(route.updatedAt, at: now, calendar: calendar) { body += "\n" + age }
        return AlertMessage(
            id: .watch(routeID: route.id, direction), title: title, body: body, urgency: direction == .over ? "critical" : "normal")
    }

    /// Why a watch alert may not go out now, or nil.
    private func refusal(
        of direction: WatchEvent.Direction, routeID: RouteID, id: AlertID, quietHours: QuietHours?, ledger: DeliveryLedger
    ) -> WatchEvent.Refusal? {
        let today = calendar.local(now).date
        let sentToday = ledger.entries.filter {
            $0.alert.kind == .watch && $0.outcome == .delivered && calendar.local($0.at).date == today
        }
        if sentToday.contains(where: { $0.alert == id }) { return .alreadySentToday(direction) }
        switch direction {
        case .over:
            let critical = Set(sentToday.map(\.alert).filter { if case .watch(_, .over) = $0 { true } else { false } })
            if critical.count >= Configuration.criticalDailyCap { return .dailyCapReached }
        case .clear:
            // The latest "over" decision for this route: a clearing answers it only if it went out.
            let overs = ledger.entries.filter { $0.alert == .watch(routeID: routeID, .over) }
            let latest = overs.map(\.occurrence).max()
            let delivered = overs.contains { $0.occurrence == latest && $0.outcome == .delivered }
            if !delivered { return .nothingToClear }
            if let quietHours, quietHours.contains(calendar.local(now).time) { return .quietHours(quietHours) }
        }
        return nil
    }

    /// Sends a sample alert — the first three favorites as they are now, or with none a line that
    /// says so — through every notifier the way every alert goes: claimed, sent, and its outcome
    /// ledgered.
    public func sendTestAlert(notifiers: [Notifier], sender: some AlertSender) throws -> TestAlert {
        let favorites = try store.favorites().routeIDs
        let message: AlertMessage
        if favorites.isEmpty {
            // Its point is the phone, not the routes: with none followed yet, it still goes.
            message = AlertMessage(
                id: .test(Int(now.timeIntervalSince1970)), title: "Test: traveltimes alerts reach you here",
                body: "No favorite routes yet, so no travel times in this sample: `traveltimes favorites add ID` follows one.")
        } else {
            let local = calendar.local(now)
            let sample = Schedule(
                routeIDs: Array(favorites.prefix(3)), days: [local.weekday], hour: local.hour, minute: local.minute, createdAt: now)
            let content = AlertComposer.content(for: sample, routes: try store.routes().byID, firesAt: now, calendar: calendar)
            message = AlertMessage(id: .test(Int(now.timeIntervalSince1970)), title: "Test: \(content.title)", body: content.body)
        }
        let occurrence = Occurrence(message.id, at: now)
        let deliveries = notifiers.map {
            Delivery(claim: Claim(occurrence: occurrence, notifier: $0, attempt: 1, isResend: false), message: message, note: nil)
        }
        try store.updateLedger(keepingSince: ledgerHorizon) { ledger in
            for delivery in deliveries { ledger.claim(delivery.claim, at: now) }
        }
        return TestAlert(message: message, sent: try deliver(deliveries, sender: sender))
    }

    /// The sample alert `test` sent, and how each notifier took it.
    public struct TestAlert: Sendable {
        public var message: AlertMessage
        public var sent: [SentAlert]
    }
}
