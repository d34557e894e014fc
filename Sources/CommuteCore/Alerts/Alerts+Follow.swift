import Basics
@_spi(Store) import CommuteDelivery
import CommuteModel
import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

/// After "leave now": the transit trip a leave alert named is followed until its line leaves the
/// first stop (`FollowedTrip`). A Transitous trip is asked for again by its itinerary's ID
/// (`refresh-itinerary`), and when that fails, is cancelled or its connection breaks, the plan is
/// asked from now to match it and find the next run; a GTFS trip is looked up in the realtime
/// feed the last refresh read, at no request. What changed past `follow-threshold` updates the
/// alert in place (a new message where the channel cannot change one), once per change; nothing
/// changed sends nothing. Every request counts against the provider's day's budget; a budget
/// spent stops the following, said once in the ledger.
extension Alerts {
    /// How a tick reaches the routing providers when a followed trip needs asking: made only then.
    public typealias ProviderAccessMaker = () throws -> ProviderAccess

    /// Follows the trips of `open` that are due a look, once per occurrence however many
    /// notifiers it went to; the follow-ups sent.
    func followTrips(
        _ open: OpenAlerts, notifiers byID: [Int: Notifier], sender: some AlertSender, providers: ProviderAccessMaker?
    ) throws -> [AlertTending.Change] {
        guard let threshold = configuration.followThreshold else { return [] }
        var due: [AlertKey: FollowedTrip] = [:]
        for alert in open.alerts {
            if let follow = alert.follow, follow.isDue(at: now), due[alert.key] == nil { due[alert.key] = follow }
        }
        guard !due.isEmpty else { return [] }
        // Claimed as a revision is: a tick beside this one, which read the same look as due, finds it
        // taken and leaves it.
        let claimed: [AlertKey: FollowedTrip] = try store.updateLedgerAndAlerts(keepingSince: ledgerHorizon) { _, alerts in
            var claimed: [AlertKey: FollowedTrip] = [:]
            for (key, follow) in due {
                let entries = alerts.alerts.filter { $0.key == key && $0.follow?.checkedAt == follow.checkedAt }
                guard !entries.isEmpty else { continue }
                for var entry in entries {
                    entry.follow?.checkedAt = now
                    alerts.put(entry)
                }
                claimed[key] = follow
            }
            return claimed
        }
        guard !claimed.isEmpty else { return [] }
        var inputs = AlertInputs(store: store, current: current, calendar: calendar)
        let routes = try inputs.routes()
        var access: ProviderAccess?
        var changes: [AlertTending.Change] = []
        var outcomes: [(key: AlertKey, next: FollowedTrip, followUp: FollowUp?, stopped: String?)] = []
        for (key, follow) in claimed.sorted(by: { $0.value.boarding < $1.value.boarding }) {
            var look = Look(trip: follow)
            if let route = routes[follow.route] {
                look = try self.look(at: follow, on: route) {
                    if access == nil { access = try providers?() }
                    return access
                }
            } else {
                look.stopped = "route \(follow.route) is gone"
            }
            var next = follow
            next.checkedAt = now
            next.requests += look.requests
            next.stopped = look.stopped
            if look.itineraryRefused { next.itinerary = nil }
            let walk = routes[follow.route]?.departures?.walkMinutes ?? 0
            let followUp = FollowUp.judge(next, found: look.found, later: look.later, walkMinutes: walk, threshold: threshold, at: now, calendar: calendar)
            if var sent = followUp?.next {
                sent.requests = next.requests
                sent.stopped = sent.stopped ?? next.stopped
                next = sent
            }
            outcomes.append((key, next, followUp, look.stopped == follow.stopped ? nil : look.stopped))
        }

        // The follow-ups, through every notifier the leave alert went to.
        var done: [(alert: OpenAlerts.Alert, change: AlertTending.Change, reason: String)] = []
        for outcome in outcomes {
            guard let followUp = outcome.followUp else { continue }
            for alert in open.alerts where alert.key == outcome.key && alert.follow != nil {
                guard let notifier = byID[alert.notifier] else { continue }
                let message = AlertMessage(id: alert.alert, title: followUp.title, body: followUp.lines.joined(separator: "\n"))
                let operation: AlertOperation = notifier.canUpdate ? alert.handle.map { .update(message, handle: $0) } ?? .send(message) : .send(message)
                let receipt = sender.perform(operation, through: notifier)
                var changed = alert
                if receipt.result == .delivered { changed.handle = receipt.handle ?? alert.handle }
                let change = AlertTending.Change(key: alert.key, notifier: notifier, result: receipt.result, message: message)
                changes.append(change)
                done.append((changed, change, "followed (\(followUp.reason)): \(followUp.title)"))
            }
        }
        try store.updateLedgerAndAlerts(keepingSince: ledgerHorizon) { ledger, alerts in
            for outcome in outcomes {
                for var alert in alerts.alerts where alert.key == outcome.key && alert.follow != nil {
                    alert.follow = outcome.next
                    if let sent = done.first(where: { $0.alert.key == alert.key && $0.alert.notifier == alert.notifier }) {
                        alert.handle = sent.alert.handle
                        ledger.note(.updated, to: alert, result: sent.change.result, handle: alert.handle, reason: sent.reason, at: now)
                    } else if let stopped = outcome.stopped {
                        ledger.note(.unchanged, to: alert, outcome: .suppressed, reason: "following stopped: \(stopped)", at: now)
                    }
                    alerts.put(alert)
                }
            }
        }
        return changes
    }

    /// The trip followed now on each route (the soonest to leave), for the exports.
    public func followedTrips() -> [RouteID: FollowedTrip] {
        var trips: [RouteID: FollowedTrip] = [:]
        for alert in (try? store.openAlerts().alerts) ?? [] {
            guard let follow = alert.follow, follow.boarding > now else { continue }
            if let known = trips[follow.route], known.boarding <= follow.boarding { continue }
            trips[follow.route] = follow
        }
        return trips
    }

    /// The trips followed now (one per occurrence), what they cost so far, and why any stopped;
    /// nil when none is followed or `alerts.json` cannot be read.
    public func following() -> Following? {
        guard let open = try? store.openAlerts() else { return nil }
        var trips: [AlertKey: FollowedTrip] = [:]
        for alert in open.alerts {
            if let follow = alert.follow, follow.boarding > now, trips[alert.key] == nil { trips[alert.key] = follow }
        }
        guard !trips.isEmpty else { return nil }
        return Following(
            trips: trips.count, requests: trips.values.reduce(0) { $0 + $1.requests }, stopped: trips.values.compactMap(\.stopped).sorted(),
            threshold: configuration.followThreshold)
    }

    /// `2 trips followed until their lines leave, 3 requests so far`, and what following costs at most.
    public struct Following: Sendable, Equatable {
        public var trips: Int
        public var requests: Int
        public var stopped: [String]
        public var threshold: Int?

        public var summary: String {
            "\(trips) trip\(trips == 1 ? "" : "s") followed until \(trips == 1 ? "its line leaves" : "their lines leave"), "
                + "\(requests) request\(requests == 1 ? "" : "s") so far (each asked at most every \(Int(FollowedTrip.interval / 60)) min, "
                + "at most \(FollowedTrip.largestRequestCount) requests a trip, none for a GTFS route"
                + (threshold.map { "; follow-threshold \($0) min" } ?? "; follow-threshold off") + ")"
                + (stopped.isEmpty ? "" : "; stopped: " + stopped.joined(separator: "; "))
        }
    }

    /// What one look at a followed trip found: the run as it is now (nil: not known), the runs
    /// that could be taken instead, the requests it cost, and why following stops.
    struct Look {
        var trip: FollowedTrip
        var found: TransitDeparture?
        var later: [TransitDeparture] = []
        var requests = 0
        var stopped: String?
        /// The planner refused to rebuild the itinerary by its ID: the plan is asked from now on.
        var itineraryRefused = false
    }

    /// Looks at `trip` on `route`: a planner's route asks its planner; a GTFS route reads the
    /// realtime feed its last refresh kept.
    private func look(at trip: FollowedTrip, on route: Route, access: () throws -> ProviderAccess?) throws -> Look {
        var look = Look(trip: trip)
        switch route.kind {
        case .transitFeed(let transit):
            // Kept in view by the refresh once the walk to it began, else still among the departures.
            look.found = (transit.followed ?? []).first { $0.run == trip.run } ?? transit.departures.first { $0.run == trip.run }
            look.later = transit.departures
        case .provider(let custom) where custom.provider.isTransit:
            guard let access = try access() else { return look }
            let customRoutes = commute.customRoutes
            let budget = configuration.budget(for: custom.provider)
            let deadline = access.clock() + 15
            var needsPlan = true
            if let itinerary = trip.itinerary {
                let url = ItineraryRefresh.url(base: access.base(for: custom.provider), itinerary: itinerary)
                switch try customRoutes.askOnce(custom.provider, url: url, access: access, budget: budget, deadline: deadline) {
                case .success(let body):
                    look.requests += 1
                    look.found = ItineraryRefresh.read(body)
                    needsPlan = look.found.map { $0.canceled || $0.skipped || ($0.legs ?? []).contains(where: \.cancelled) } ?? true
                case .failure(let failure):
                    if !failure.isSkip { look.requests += 1 }
                    if failure.isBudget {
                        look.stopped = failure.description
                        return look
                    }
                    if case .refused = failure { look.itineraryRefused = true }
                }
            }
            guard needsPlan, trip.requests + look.requests < FollowedTrip.largestRequestCount else { return look }
            // The plan from when the rider was told to leave: the same run among its itineraries
            // (it left the door before now), and the next ones.
            let from = min(now, trip.leave)
            switch try customRoutes.measure(custom, access: access, budget: budget, deadline: deadline, query: RoutingQuery(time: from, arriveBy: false)) {
            case .success(let measurement):
                look.requests += 1
                let itineraries = measurement.itineraries ?? []
                look.later = itineraries
                if look.found == nil {
                    // The run, else the same trip (a planner names a run by its first ride's trip).
                    look.found = itineraries.first { $0.run == trip.run } ?? itineraries.first { $0.tripID == trip.run.trip }
                }
            case .failure(let failure):
                if !failure.isSkip { look.requests += 1 }
                if failure.isBudget { look.stopped = failure.description }
            }
        case .feed, .provider:
            look.stopped = "route \(trip.route) is not public transport"
        }
        return look
    }
}

extension CustomRoutes {
    /// One GET to a provider, counted against its day's budget (across processes) before it is
    /// sent, and in a public service's pace: its body when it answers 200. No retry: a followed
    /// trip is looked at again a few minutes on.
    func askOnce(_ provider: RouteProvider, url text: String, access: ProviderAccess, budget: Int, deadline: TimeInterval) throws -> Result<Data, CustomFetchFailure> {
        guard let url = URL(string: text) else { return .failure(.refused("the \(provider.displayName) URL cannot be built")) }
        guard try store.updateRefreshLog({ $0.reserveRequest(to: provider, on: budgetDay, budget: budget) }) else {
            return .failure(.budgetSpent(provider, budget: budget))
        }
        if !provider.needsKey, try !store.pace(of: provider).admit(
            latest: access.wallClock().addingTimeInterval(deadline - access.clock()), clock: access.wallClock, sleep: access.sleep)
        {
            try store.updateRefreshLog { $0.releaseRequests(1, to: provider, on: budgetDay) }
            return .failure(.notAsked(provider))
        }
        do {
            let response = try access.client.get(url, headers: ["User-Agent": access.userAgent, "Accept": "application/json"], timeout: max(1, deadline - access.clock()))
            guard response.status == 200 else { return .failure(.refused("\(provider.displayName) answered HTTP \(response.status)")) }
            return .success(response.body)
        } catch HTTPClientError.helperMissing(let path) {
            throw FetchError.helperMissing(path: path)
        } catch {
            return .failure(.gaveUp(FeedSource.redact(String(describing: error), secrets: access.secrets)))
        }
    }
}
