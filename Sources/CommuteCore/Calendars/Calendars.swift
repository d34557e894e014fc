import Basics
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Why a calendar cannot be added, read or used: one line naming the calendar.
public struct CalendarFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The user's words are wrong (a name, a route), not the calendar or its server.
    public var isUsersFault: Bool
    public init(_ message: String, isUsersFault: Bool = false) {
        self.message = message
        self.isUsersFault = isUsersFault
    }
    public var description: String { message }
}

/// One occurrence as a calendar's listing shows it: used, or skipped and why.
public struct CalendarEventUse: Sendable, Equatable {
    public var occurrence: CalendarOccurrence
    /// Nil when used; else all-day, cancelled, free/transparent, not matched, past.
    public var skipped: String?
    public var used: Bool { skipped == nil }
}

extension Calendars {
    /// The configured calendar named `name`.
    public func source(_ name: String) throws -> CalendarSource {
        guard let source = configuration.calendars?.first(where: { $0.name == name }) else {
            let known = (configuration.calendars ?? []).map(\.name)
            throw CalendarFailure(
                "no calendar '\(DisplayText.line(name))'" + (known.isEmpty ? "; add one with `traveltimes calendar add`" : " (there are: \(known.joined(separator: ", ")))"))
        }
        return source
    }

    /// The calendars, and what their last reading found.
    public func list() throws -> [(source: CalendarSource, reading: CalendarState.Reading?, departures: Int, skippedDays: Int)] {
        let state = try store.calendarState()
        return (configuration.calendars ?? []).map { source in
            (source, state.readings[source.name], state.departures.filter { $0.calendar == source.name }.count,
             state.skippedDays.filter { $0.calendar == source.name }.count)
        }
    }

    /// Adds a calendar: it is read now and must be one; nothing is saved otherwise. Then the
    /// alerts are planned again with its departures (or days off).
    @discardableResult
    public func add(
        _ source: CalendarSource, client: any HTTPClient, access: Places.SearchAccess? = nil, timeout: TimeInterval
    ) throws -> (reading: CalendarState.Reading, planned: Int) {
        guard CalendarSource.isValidName(source.name) else {
            throw CalendarFailure("'\(DisplayText.line(source.name))' is not a calendar name: 1 to 40 lowercase letters, digits and dashes, starting with a letter (work, holidays)", isUsersFault: true)
        }
        guard configuration.calendars?.contains(where: { $0.name == source.name }) != true else {
            throw CalendarFailure("there is already a calendar '\(source.name)' (`traveltimes calendar remove \(source.name)` first)", isUsersFault: true)
        }
        guard (configuration.calendars ?? []).count < CalendarSource.largestCount else {
            throw CalendarFailure("there are \(CalendarSource.largestCount) calendars already; remove one first", isUsersFault: true)
        }
        if let routeID = source.routeID, try store.routes().byID[routeID] == nil {
            throw CalendarFailure("no route '\(DisplayText.line(routeID))' (see `traveltimes routes`)", isUsersFault: true)
        }
        if let from = source.from { _ = try commute.places.point(from) }
        guard case .fresh(let data, let validators) = try fetch(source, validators: nil, client: client, timeout: timeout) else {
            throw CalendarFailure("calendar \(source.name): the server answered 304 to a first request")
        }
        let expansion = try expansion(of: data, source: source)
        try store.checkPlanInputs()
        // The name is checked again where it is taken: another command may have taken it meanwhile.
        try store.updateConfiguration { configuration in
            let calendars = configuration.calendars ?? []
            guard !calendars.contains(where: { $0.name == source.name }) else {
                throw CalendarFailure("there is already a calendar '\(source.name)' (`traveltimes calendar remove \(source.name)` first)", isUsersFault: true)
            }
            guard calendars.count < CalendarSource.largestCount else {
                throw CalendarFailure("there are \(CalendarSource.largestCount) calendars already; remove one first", isUsersFault: true)
            }
            try AtomicFile.write(data, to: store.calendarCopyPath(source.name))
            configuration.calendars = calendars + [source]
        }
        let reading = CalendarState.Reading(
            validators: validators.isEmpty ? nil : validators, fetchedAt: now, checkedAt: now, problem: nil, problemTold: nil,
            events: expansion.events, unreadable: Self.unreadable(expansion))
        let plan = try plan(source, expansion: expansion, access: access, timeout: timeout)
        if source.from != nil { try keepRoutes(of: source, plan.routes) }
        try store.update(CalendarState.self) { state in
            state.readings[source.name] = reading
            apply(plan, to: &state, source: source)
        }
        let planned = plan.departures.count + plan.skippedDays.count
        try commute.reschedule()
        return (reading, planned)
    }

    /// Removes a calendar, its copy and what was planned from it; alerts are planned again.
    public func remove(_ name: String) throws {
        let removed = try source(name)
        try store.checkPlanInputs()
        try store.updateConfiguration { configuration in
            configuration.calendars = (configuration.calendars ?? []).filter { $0.name != name }
            if configuration.calendars?.isEmpty == true { configuration.calendars = nil }
        }
        try store.update(CalendarState.self) { state in
            state.readings[name] = nil
            state.departures.removeAll { $0.calendar == name }
            state.skippedDays.removeAll { $0.calendar == name }
        }
        try keepRoutes(of: removed, [:])
        unlink(store.calendarCopyPath(name))
        try commute.reschedule()
    }

    /// Every occurrence in the next `days` days (from today's midnight) of a calendar's last good
    /// copy, each used or skipped and why; and the events that could not be read.
    public func events(_ name: String, days: Int) throws -> (uses: [CalendarEventUse], problems: [CalendarProblem], zone: IANAZone) {
        let source = try source(name)
        guard let data = try RegularFile.read(store.calendarCopyPath(name), maximumSize: ICSReader.maximumBytes) else {
            throw CalendarFailure("calendar \(name) has no copy yet: `traveltimes refresh` reads it")
        }
        let start = calendar.instant(on: today, hour: 0, minute: 0)
        let end = calendar.instant(on: CivilDate(dayNumber: today.dayNumber + days), hour: 0, minute: 0)
        let expansion = try expansion(of: data, source: source, from: start, until: end)
        let places = source.from == nil ? nil : try EventPlaces(commute: commute, source: source, access: nil, timeout: 0)
        return (
            expansion.occurrences.map { CalendarEventUse(occurrence: $0, skipped: skipReason($0, source: source, places: places)) }, expansion.problems,
            timeZone
        )
    }

    /// Why an occurrence is not used; nil when it is. With `places` (a calendar with --from), an
    /// event whose place is not found is not used either.
    func skipReason(_ occurrence: CalendarOccurrence, source: CalendarSource, places: EventPlaces? = nil) -> String? {
        if occurrence.isCancelled { return "cancelled" }
        if Double(occurrence.start) <= now.timeIntervalSince1970 && source.purpose == .departures { return "past" }
        if let match = source.match?.lowercased(), !match.isEmpty,
            !occurrence.summary.lowercased().contains(match), !(occurrence.location?.lowercased().contains(match) ?? false)
        {
            return "not matched"
        }
        // A skip calendar counts every day with an event (holidays are all-day and transparent).
        guard source.purpose == .departures else {
            return occurrence.end <= Int(calendar.instant(on: today, hour: 0, minute: 0).timeIntervalSince1970) ? "past" : nil
        }
        if occurrence.allDay { return "all-day" }
        if occurrence.isFree { return "free/transparent" }
        if let places, case .missing(let why) = places.destination(of: occurrence) { return why }
        return nil
    }

    // MARK: Reading

    enum Fetched {
        case fresh(Data, HTTPValidators)
        case notModified
    }

    /// The calendar's bytes: from its file, or over HTTP with the last validators.
    func fetch(_ source: CalendarSource, validators: HTTPValidators?, client: any HTTPClient, timeout: TimeInterval) throws -> Fetched {
        guard let location = TransitLocation(source.location) else {
            throw CalendarFailure("calendar \(source.name): '\(source.shownLocation)' is not a URL or a path")
        }
        switch location {
        case .file(let path):
            do {
                guard let data = try RegularFile.read(path, maximumSize: ICSReader.maximumBytes) else {
                    throw CalendarFailure("calendar \(source.name): \(DisplayText.line(path)) does not exist")
                }
                return .fresh(data, HTTPValidators())
            } catch let error as StoreError {
                throw CalendarFailure("calendar \(source.name): \(error)")
            }
        case .url(let url):
            do {
                switch try FeedFetcher(client: client).fetch(
                    url, validators: validators, timeout: timeout, headers: ["Accept": "text/calendar"], body: FeedFetcher.binaryBody)
                {
                case .fresh(let data, let received): return .fresh(data, received)
                case .notModified: return .notModified
                }
            } catch {
                if case .helperMissing = error { throw error }
                let secrets = FeedSource.pathSecrets(in: url.absoluteString) + [url.path, url.query ?? "", url.user ?? "", url.password ?? ""].filter { $0.count > 1 }
                throw CalendarFailure(FeedSource.redact("calendar \(source.name) (\(source.shownLocation)): \(error)", secrets: secrets))
            }
        }
    }

    /// The occurrences of a calendar's bytes from now over its horizon (or a window).
    func expansion(of data: Data, source: CalendarSource, from: Date? = nil, until: Date? = nil) throws -> CalendarExpansion {
        let start = from ?? calendar.instant(on: today, hour: 0, minute: 0)
        let end = until ?? now.addingTimeInterval(TimeInterval(source.horizonDays) * 86_400)
        do {
            return try CalendarEvents.expand(data, from: Int(start.timeIntervalSince1970), until: Int(end.timeIntervalSince1970), zone: timeZone)
        } catch {
            throw CalendarFailure("calendar \(source.name) is not readable: \(error)")
        }
    }

    static func unreadable(_ expansion: CalendarExpansion) -> [String]? {
        let lines = expansion.problems.prefix(20).map { problem in
            DisplayText.line("line \(problem.line)" + (problem.uid.map { " (\(String($0.prefix(60))))" } ?? "") + ": \(problem.reason)")
        }
        return lines.isEmpty ? nil : Array(lines)
    }

    /// What a calendar's occurrences plan: departures (with, for --from, the routes to the events'
    /// places) or days off. Places not known yet are asked for here, outside any lock.
    struct Plan {
        var departures: [CalendarState.Departure] = []
        var skippedDays: [CalendarState.SkippedDay] = []
        /// For --from: the route to each event's place, by ID.
        var routes: [RouteID: Route] = [:]
    }

    func plan(_ source: CalendarSource, expansion: CalendarExpansion, access: Places.SearchAccess?, timeout: TimeInterval) throws -> Plan {
        let places = source.from == nil ? nil : try EventPlaces(commute: commute, source: source, access: access, timeout: timeout)
        let used = expansion.occurrences.filter { skipReason($0, source: source, places: places) == nil }
        func summary(_ occurrence: CalendarOccurrence) -> String {
            let text = DisplayText.line(occurrence.summary.trimmingWhitespace())
            return text.isEmpty ? "(no title)" : String(text.prefix(120))
        }
        var plan = Plan()
        switch source.purpose {
        case .departures:
            for occurrence in used.prefix(CalendarState.largestPlanned / 2) {
                var routeID = source.routeID
                if let places, case .found(let point, let label) = places.destination(of: occurrence), let provider = source.provider {
                    let route = places.route(to: point, label: label, provider: provider)
                    plan.routes[route.id] = route
                    routeID = route.id
                }
                guard let routeID else { continue }
                plan.departures.append(CalendarState.Departure(
                    calendar: source.name, uid: String(occurrence.uid.prefix(200)), recurrenceID: occurrence.recurrenceID, summary: summary(occurrence),
                    start: Date(timeIntervalSince1970: TimeInterval(occurrence.start)), routeIDs: [routeID], bufferMinutes: source.bufferMinutes,
                    createdAt: source.createdAt))
            }
        case .skip:
            var days: [String: String] = [:]
            for occurrence in used {
                // Every local day it touches (an all-day event's end is the next midnight).
                var day = calendar.local(Date(timeIntervalSince1970: TimeInterval(occurrence.start))).date.dayNumber
                let last = calendar.local(Date(timeIntervalSince1970: TimeInterval(max(occurrence.start, occurrence.end - 1)))).date.dayNumber
                while day <= last, day - today.dayNumber <= CalendarSource.longestHorizonDays {
                    if day >= today.dayNumber, days[CivilDate(dayNumber: day).iso] == nil { days[CivilDate(dayNumber: day).iso] = summary(occurrence) }
                    day += 1
                }
            }
            plan.skippedDays = days.sorted { $0.key < $1.key }.prefix(CalendarState.largestPlanned / 2).map {
                CalendarState.SkippedDay(calendar: source.name, date: $0.key, summary: $0.value)
            }
        }
        return plan
    }

    /// How long a departure whose time has come stays planned: until `tick` has sent it or
    /// recorded it as missed, which it does within its week-and-a-day look back.
    static let pastDepartureKept: TimeInterval = 8 * 86_400

    /// The departures of `source` in `state` whose time has come: a calendar read again lists
    /// only what is ahead, but these are still `tick`'s to send or record as missed (a laptop
    /// that wakes after a meeting's departure may refresh before it ticks).
    func departuresGoneBy(of source: CalendarSource, in state: CalendarState) -> [CalendarState.Departure] {
        state.departures.filter { $0.calendar == source.name && $0.start <= now && now.timeIntervalSince($0.start) < Self.pastDepartureKept }
    }

    /// Replaces what `source` planned in `state`; the departures gone by stay. Over the limit,
    /// the nearest are kept.
    func apply(_ plan: Plan, to state: inout CalendarState, source: CalendarSource) {
        let goneBy = departuresGoneBy(of: source, in: state)
        let planned = Set(plan.departures.map(\.scheduleID))
        state.departures.removeAll { $0.calendar == source.name }
        state.skippedDays.removeAll { $0.calendar == source.name }
        state.departures += goneBy.filter { !planned.contains($0.scheduleID) } + plan.departures
        state.skippedDays += plan.skippedDays
        if state.departures.count > CalendarState.largestPlanned {
            state.departures = Array(state.departures.sorted { $0.start < $1.start }.prefix(CalendarState.largestPlanned))
        }
        if state.skippedDays.count > CalendarState.largestPlanned {
            state.skippedDays = Array(state.skippedDays.sorted { $0.date < $1.date }.prefix(CalendarState.largestPlanned))
        }
    }

    /// Keeps the routes to a calendar's events' places as its plans need them: new ones added
    /// (timed when an alert nears, as every custom route is), ones no event needs removed (a
    /// departure gone by still needs its route until `tick` has dealt with it).
    func keepRoutes(of source: CalendarSource, _ routes: [RouteID: Route], state: CalendarState? = nil) throws {
        let stillNeeded = Set((state.map { departuresGoneBy(of: source, in: $0) } ?? []).flatMap(\.routeIDs))
        try store.updateCustomRoutes { saved in
            saved.removeAll { $0.calendar == source.name && routes[$0.id] == nil && !stillNeeded.contains($0.id) }
            let known = Set(saved.map(\.id))
            saved += routes.values.filter { !known.contains($0.id) }.sorted { $0.id < $1.id }
        }
    }

    /// Reads every calendar again (a file, or a URL with its validators) and plans again from
    /// each. A calendar that cannot be read keeps its last good copy; its problem is returned once.
    public func refresh(client: any HTTPClient, access: Places.SearchAccess? = nil, timeout: TimeInterval) throws -> [String] {
        guard let sources = configuration.calendars, !sources.isEmpty else { return [] }
        var told: [String] = []
        var state = try store.calendarState()
        for source in sources {
            var reading = state.readings[source.name] ?? CalendarState.Reading()
            reading.checkedAt = now
            var data: Data?
            var expanded: CalendarExpansion?
            do {
                switch try fetch(source, validators: reading.validators, client: client, timeout: timeout) {
                case .fresh(let fresh, let validators):
                    // Read before it replaces the last good copy: a broken calendar never does.
                    expanded = try expansion(of: fresh, source: source)
                    try AtomicFile.write(fresh, to: store.calendarCopyPath(source.name))
                    reading.validators = validators.isEmpty ? nil : validators
                    reading.fetchedAt = now
                case .notModified:
                    data = try RegularFile.read(store.calendarCopyPath(source.name), maximumSize: ICSReader.maximumBytes)
                }
                reading.problem = nil
                reading.problemTold = nil
            } catch let error as CalendarFailure {
                if reading.problem != error.message || reading.problemTold != true {
                    told.append(error.message + "; its last good copy is used")
                }
                reading.problem = error.message
                reading.problemTold = true
                data = try? RegularFile.read(store.calendarCopyPath(source.name), maximumSize: ICSReader.maximumBytes)
            }
            if let expansion = expanded ?? data.flatMap({ try? expansion(of: $0, source: source) }) {
                reading.events = expansion.events
                reading.unreadable = Self.unreadable(expansion)
                do {
                    let plan = try plan(source, expansion: expansion, access: access, timeout: timeout)
                    if source.from != nil { try keepRoutes(of: source, plan.routes, state: state) }
                    apply(plan, to: &state, source: source)
                } catch {
                    told.append("calendar \(source.name): \(error)")
                }
            }
            state.readings[source.name] = reading
        }
        let planned = state
        try store.update(CalendarState.self) { $0 = planned }
        return told
    }

    // MARK: Planning

    /// The departures planned, as one-off arrive-by schedules; none when the file is unreadable
    /// (`doctor` says so).
    public func departureSchedules() -> [Schedule] {
        guard let state = try? store.calendarState() else { return [] }
        return Self.schedules(state, calendar: calendar)
    }

    static func schedules(_ state: CalendarState, calendar: ZonedCalendar) -> [Schedule] {
        state.departures.map { departure in
            let local = calendar.local(departure.start)
            return Schedule(
                id: departure.scheduleID, routeIDs: departure.routeIDs, days: [local.weekday], hour: local.hour, minute: local.minute,
                createdAt: departure.createdAt, timing: .arriveBy(buffer: departure.bufferMinutes, headsUp: nil),
                event: CalendarEventDetail(calendar: departure.calendar, summary: departure.summary, start: Int(departure.start.timeIntervalSince1970)))
        }
    }

    /// The days skip calendars pause, as pauses of every schedule.
    public func skipPauses() -> [Pause] {
        guard let state = try? store.calendarState() else { return [] }
        return Self.pauses(state)
    }

    static func pauses(_ state: CalendarState) -> [Pause] {
        state.skippedDays.compactMap { day in
            CivilDate(iso: day.date).map {
                Pause(number: 0, from: $0, until: $0, reason: String("\(day.calendar): \(day.summary)".prefix(Pause.longestReason)))
            }
        }
    }
}

extension CalendarState.Departure {
    /// A stable identity per occurrence (calendar, UID, original start): its alert keeps it as
    /// the plan moves the leave time.
    var scheduleID: UUID {
        var hasher = StableHash()
        hasher.combine(calendar)
        hasher.combine(uid)
        hasher.combine(String(recurrenceID ?? Int(start.timeIntervalSince1970)))
        return hasher.uuid
    }
}

extension CalendarSource {
    public static func isValidName(_ name: String) -> Bool { TransitFeed.isValidName(name) }
}
