import Basics
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

/// Disruption on a car route where a keyless incident feed covers its roads: Germany's Autobahn
/// API (`AutobahnIncidents`). A route's line and motorways are kept when its engine draws them
/// (OSRM, Valhalla); each refresh asks the feed for the warnings and closures of those motorways
/// (each road at most every 5 minutes, a request a second across processes), keeps the items
/// within 200 m of a line, and `route ID` and alerts show those in force as notices — never as
/// minutes, which the feed does not give.
extension Incidents {
    /// Germany, roughly: a line with no point inside is not asked about.
    static let covered = (latitude: 47.2...55.1, longitude: 5.8...15.1)

    /// Keeps the lines engines drew for these routes (a route without one keeps its old line).
    /// A damaged `incidents.json` keeps none, and is left as it is: the refresh's incidents step
    /// names it; a route's time is never lost to it.
    func keepLines(_ lines: [RouteID: RouteLine]) {
        let kept = lines.filter { _, line in line.points.contains(where: Self.isCovered) }
        guard !kept.isEmpty else { return }
        try? store.update(IncidentState.self) { state in
            state.lines.merge(kept) { _, new in new }
            // Past the most kept, the routes asked last stay (a bound on a file read by every alert).
            while state.lines.count > IncidentState.largestLineCount, let any = state.lines.keys.first(where: { kept[$0] == nil }) {
                state.lines[any] = nil
            }
        }
    }

    static func isCovered(_ point: Coordinate) -> Bool {
        covered.latitude.contains(point.latitude) && covered.longitude.contains(point.longitude)
    }

    /// The lines of `incidents` a route has now: `Incident: A8 | … (Autobahn GmbH notice, not a
    /// delay figure)`, one each.
    public func notices(for routeIDs: [RouteID]) -> [RouteID: [String]] {
        guard let state = try? store.read(IncidentState.self), !state.lines.isEmpty else { return [:] }
        var found: [RouteID: [String]] = [:]
        for id in routeIDs {
            guard let line = state.lines[id] else { continue }
            let items = line.roads.flatMap { state.roads[$0]?.incidents ?? [] }
            let near = Incident.near(line, in: items, at: now).map(\.line)
            if !near.isEmpty { found[id] = near }
        }
        return found
    }

    /// What the incident feed knows now, for `doctor`: the routes with a line, the motorways asked
    /// about, when last, and the problems of the last asks; nil when no route has a line.
    public struct IncidentSummary: Sendable, Equatable {
        public var routes: Int
        public var roads: [String]
        public var checkedAt: Date?
        public var problems: [String]
    }

    public func summary() -> IncidentSummary? {
        guard let state = try? store.read(IncidentState.self), !state.lines.isEmpty else { return nil }
        let roads = Set(state.lines.values.flatMap(\.roads)).sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        return IncidentSummary(
            routes: state.lines.count, roads: roads, checkedAt: roads.compactMap { state.roads[$0]?.checkedAt }.max(),
            problems: roads.compactMap { road in state.roads[road]?.problem.map { "\(road): \($0)" } })
    }

    /// What asking the feed did: the roads asked, and those that failed with why.
    public struct IncidentOutcome: Sendable, Equatable {
        public var asked: [String] = []
        public var failed: [String: String] = [:]
    }

    /// The most keyed routes OSRM is asked to draw in one refresh, and how often one is asked.
    static let drawnPerRefresh = 4
    static let drawInterval: TimeInterval = 86_400

    /// Draws, with OSRM, the lines of keyed car routes in Germany that have none (their providers
    /// draw none): a free request of the open engine, at most daily for a route, a few a refresh,
    /// within OSRM's budget and pace.
    func drawKeyedLines(_ routes: [Route], access: ProviderAccess) throws {
        let state = try store.read(IncidentState.self)
        let wanting = routes.compactMap { route -> (RouteID, Route.Custom)? in
            guard case .provider(let custom) = route.kind, custom.provider.needsKey, state.lines[route.id] == nil,
                Self.isCovered(custom.from) || Self.isCovered(custom.to),
                (state.drawnAt?[route.id]).map({ now.timeIntervalSince($0) >= Self.drawInterval || $0 > now }) ?? true
            else { return nil }
            return (route.id, custom)
        }.prefix(Self.drawnPerRefresh)
        guard !wanting.isEmpty else { return }
        var lines: [RouteID: RouteLine] = [:]
        let budget = configuration.budget(for: .osrm)
        for (id, custom) in wanting {
            let asking = Route.Custom(provider: .osrm, from: custom.from, to: custom.to)
            if case .success(let measurement) = try commute.customRoutes.measure(asking, access: access, budget: budget, deadline: access.clock() + 10),
                let line = measurement.line
            {
                lines[id] = line
            }
        }
        try store.update(IncidentState.self) { saved in
            for (id, _) in wanting { saved.drawnAt = (saved.drawnAt ?? [:]).merging([id: now]) { _, new in new } }
            saved.lines.merge(lines.filter { _, line in line.points.contains(where: Self.isCovered) }) { _, new in new }
        }
    }

    /// Asks the feed about every motorway a kept line uses that was not asked within 5 minutes,
    /// and keeps the items near a line. Removed routes' lines go first. Keyed car routes in
    /// Germany get their lines drawn by OSRM first (`access`).
    /// `custom`: the custom routes as the refresh has them (else the cache is read for them).
    public func refreshIncidents(
        client: any HTTPClient, userAgent: String, base: String?, timeout: TimeInterval, access: ProviderAccess? = nil, custom given: [Route]? = nil
    ) throws -> IncidentOutcome {
        var outcome = IncidentOutcome()
        let custom = try given ?? store.routes().routes.filter(\.isProviderRoute)
        if let access, custom.contains(where: { $0.provider?.needsKey == true }) { try drawKeyedLines(custom, access: access) }
        let state = try store.read(IncidentState.self)
        guard !state.lines.isEmpty else { return outcome }
        let routeIDs = Set(custom.map(\.id))
        let lines = state.lines.filter { routeIDs.contains($0.key) }
        let roads = Set(lines.values.flatMap(\.roads)).sorted()
        let due = roads.filter { road in state.roads[road].map { now.timeIntervalSince($0.checkedAt) >= AutobahnIncidents.freshFor || $0.checkedAt > now } ?? true }
        let start = DispatchTime.now().uptimeNanoseconds
        let pace = store.pace(named: "autobahn", perMinute: 30)
        var answers: [String: IncidentState.Road] = [:]
        for road in due {
            var items: [Incident] = []
            var problem: String?
            for service in AutobahnIncidents.services where problem == nil {
                let left = timeout - Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                guard left > 0.5, try pace.admit(latest: Date().addingTimeInterval(left), clock: { Date() }, sleep: { sleepFor($0) }),
                    let url = URL(string: AutobahnIncidents.url(base: base ?? AutobahnIncidents.defaultBaseURL, road: road, service: service))
                else {
                    problem = "not asked: the refresh's time ran out"
                    continue
                }
                do {
                    let response = try client.get(url, headers: ["User-Agent": userAgent, "Accept": "application/json"], timeout: min(left, 15))
                    if response.status == 204 || response.status == 404 { continue }  // a road it has nothing for
                    guard response.status == 200 else {
                        problem = "the Autobahn API answered HTTP \(response.status)"
                        continue
                    }
                    guard let read = AutobahnIncidents.read(response.body, road: road, service: service) else {
                        problem = "the Autobahn API's \(service) answer for \(road) is not its documented shape"
                        continue
                    }
                    items += read
                } catch HTTPClientError.helperMissing(let path) {
                    throw FetchError.helperMissing(path: path)
                } catch HTTPClientError.tooLarge(let limit) {
                    problem = "the Autobahn API's \(service) answer for \(road) is over \(limit / 1_048_576) MiB"
                } catch {
                    problem = "the Autobahn API could not be reached: \(DisplayText.line(String(String(describing: error).prefix(200))))"
                }
            }
            outcome.asked.append(road)
            if let problem {
                outcome.failed[road] = problem
                // What was known stays; the failure is said and asked again next refresh.
                var kept = state.roads[road] ?? IncidentState.Road(checkedAt: now, incidents: [])
                kept.problem = problem
                answers[road] = kept
                continue
            }
            // Only what is near some line is kept: the rest is another stretch of the road.
            let near = items.filter { item in
                lines.values.contains { line in
                    line.roads.contains(road) && item.points.contains { line.distance(to: $0) <= AutobahnIncidents.nearRoute }
                }
            }
            answers[road] = IncidentState.Road(checkedAt: now, incidents: Array(near.prefix(IncidentState.largestIncidentCount)))
        }
        guard !due.isEmpty || lines.count != state.lines.count else { return outcome }
        try store.update(IncidentState.self) { saved in
            saved.lines = saved.lines.filter { routeIDs.contains($0.key) }
            saved.drawnAt = saved.drawnAt?.filter { routeIDs.contains($0.key) }
            let used = Set(saved.lines.values.flatMap(\.roads))
            saved.roads = saved.roads.filter { used.contains($0.key) }.merging(answers) { _, new in new }
        }
        return outcome
    }
}
