import FoundationEssentials

/// The result of fanning schedules out under the cap.
public struct FanOutPlan: Sendable, Equatable {
    /// How many requests the enabled schedules asked for.
    public var requested: Int
    /// The most requests that may be pending.
    public var cap: Int
    /// The soonest `cap` requests, soonest first, with their rendered content.
    public var scheduled: [PendingAlert]
    /// The rest, soonest first — as many as were asked for (`FanOut.plan`'s `listing`):
    /// reconsidered at every reschedule as the window rolls forward.
    public var deferred: [TriggerRequest]
    /// How many the cap deferred, listed or not.
    public var deferredCount: Int
    /// Which requests were deferred, every one, as 16 hex digits: the wrapping sum of each one's
    /// FNV-1a hash over its schedule's bytes, weekday and heads-up flag — the same in every
    /// process, unlike `Hasher`. Nil when none was.
    public var deferredDigest: String?

    public init(requested: Int, cap: Int, scheduled: [PendingAlert], deferred: [TriggerRequest], deferredCount: Int? = nil, deferredDigest: String? = nil) {
        self.requested = requested
        self.cap = cap
        self.scheduled = scheduled
        self.deferred = deferred
        self.deferredCount = deferredCount ?? deferred.count
        self.deferredDigest = deferredDigest ?? Self.digest(deferred.lazy.map { ($0.scheduleID, $0.weekday, $0.isHeadsUp) })
    }

    /// The digest of deferred requests given as (schedule, weekday, heads-up).
    static func digest(_ requests: some Sequence<(UUID, Weekday, Bool)>) -> String? {
        var sum: UInt64 = 0
        var any = false
        for (scheduleID, weekday, isHeadsUp) in requests {
            any = true
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            func mix(_ byte: UInt8) {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            withUnsafeBytes(of: scheduleID.uuid) { for byte in $0 { mix(byte) } }
            mix(UInt8(weekday.rawValue))
            mix(isHeadsUp ? 1 : 0)
            sum = sum &+ hash
        }
        guard any else { return nil }
        let hex = String(sum, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// The enabled schedules in rank order, read in place.
private struct Ranked: RandomAccessCollection {
    let schedules: [Schedule]
    let order: [Int]
    var startIndex: Int { 0 }
    var endIndex: Int { order.count }
    subscript(rank: Int) -> Schedule { schedules[order[rank]] }
}

/// Occurrences that have fired and are not yet dealt with. Each keeps its request in the plan at
/// its own time — first in line, never deferred by the cap, never moved a week on by a refresh in
/// the minute it fired — until `tick` delivers, suppresses or misses it.
public struct DueOccurrences: Sendable, Equatable {
    /// The longest grace there may be: a day.
    public static let largestGrace = 86_400

    /// How long after its time an occurrence may still be delivered.
    public var grace: TimeInterval
    /// When each request was first planned: an occurrence before that is none of `tick`'s
    /// business (a schedule added at 7:05 did not miss 7:00). A request not in it is new.
    public var since: [AlertID: Date]
    /// The occurrences already dealt with, by request identifier.
    public var finished: [AlertID: Set<Date>]

    /// The requests the previous plan held without listing them, and since when.
    public var known: KnownRequests?

    public init(grace: TimeInterval, since: [AlertID: Date], finished: [AlertID: Set<Date>], known: KnownRequests? = nil) {
        self.grace = grace
        self.since = since
        self.finished = finished
        self.known = known
    }

    /// When a request was first planned: as listed, or as the previous plan held it unlisted.
    public func since(of id: AlertID) -> Date? {
        if let listed = since[id] { return listed }
        guard let known, known.contains(id) else { return nil }
        return known.since
    }
}

/// Turns schedules into weekly trigger requests: one per enabled schedule per selected weekday.
///
/// A pure function of its arguments: no clock, file or network access.
public enum FanOut {
    /// The pending-request limit when none is configured (the iOS limit the product mirrors).
    public static let defaultCap = 64
    /// The largest cap that may be configured.
    public static let largestCap = 10_000

    /// Plans every trigger; lists the soonest `listing` deferred ones. Ordering: soonest next fire; ties go to the older schedule (then its
    /// ID), then the lower weekday number. Content is rendered for the scheduled requests only;
    /// the deferred ones get theirs when they roll into the window. With `due`, a request whose
    /// latest occurrence is due and not yet dealt with is planned at that occurrence instead. An
    /// occurrence on a paused day is passed over for the next one that is not: it takes no place
    /// under the cap.
    /// `memory` gives, for an arrive-by request, what the last plan of the same occurrence
    /// remembered of its bus.
    public static func plan(
        schedules: [Schedule], routes: [RouteID: Route], now: Date, calendar: ZonedCalendar, cap: Int,
        due: DueOccurrences? = nil, pauses: Pauses = .none, typical: LeaveTime.Typical? = nil,
        memory: (TriggerRequest) -> TransitMemory? = { _ in nil }, freeFlowMargin: Double = LeaveTime.defaultFreeFlowMargin,
        onTime: LeaveTime.OnTimeLookup? = nil, listing: Int = .max
    ) -> FanOutPlan {
        // Ranked by their positions, never moved about: a schedule is a large value, and 3,000 of
        // them sorted or copied spend their time copying. Each enabled schedule's rank key is
        // small and flat; a file is written in the order its schedules were added, so it is
        // sorted already, as a rule.
        typealias RankKey = (created: Double, high: UInt64, low: UInt64, index: Int)
        var rankKeys = schedules.indices.compactMap { index -> RankKey? in
            guard schedules[index].isEnabled else { return nil }
            let id = schedules[index].id.words
            return (schedules[index].createdAt.timeIntervalSinceReferenceDate, id.high, id.low, index)
        }
        func ranksBefore(_ left: RankKey, _ right: RankKey) -> Bool {
            left.created != right.created ? left.created < right.created : left.high != right.high ? left.high < right.high : left.low < right.low
        }
        if rankKeys.indices.dropFirst().contains(where: { !ranksBefore(rankKeys[$0 - 1], rankKeys[$0]) }) {
            rankKeys.sort(by: ranksBefore)
        }
        let order = rankKeys.map(\.index)
        let ranked = Ranked(schedules: schedules, order: order)
        let nowSeconds = ZonedCalendar.seconds(now)
        let nowDay = calendar.localDay(of: nowSeconds)
        // A due occurrence fires up to `grace` before now: every delay is shifted by that much so
        // that the keys stay unsigned and due occurrences sort first.
        let grace = Int(min(max(due?.grace ?? 0, 0), TimeInterval(DueOccurrences.largestGrace)))
        let shift = grace + 1
        // Every schedule sharing a weekday and time shares its next fire and its latest one:
        // compute each once.
        var nextFireByMinuteOfWeek = [Int](repeating: 0, count: 7 * 1_440)
        var dueFireByMinuteOfWeek: [Int: Int?] = [:]
        // Each request is packed into one integer that sorts in the required order:
        // seconds until it fires, plus the shift (bits 28…63: a pause may put a fire two years
        // off), schedule rank (bits 4…27: a 64 MiB schedules file holds far fewer than 2^24),
        // whether it is an arrive-by heads-up (bit 3), weekday (bits 0…2).
        var keys: [UInt64] = []
        keys.reserveCapacity(ranked.count * 3)
        // Arrive-by requests: the arrival each leave time is for, by rank and weekday.
        var arrivals: [Int: Int] = [:]
        for rank in ranked.indices {
            // Read in place: a fixed-time schedule (nearly all of 3,000) is never copied.
            let index = order[rank]
            for weekday in schedules[index].days {
                let minuteOfDay = schedules[index].hour * 60 + schedules[index].minute
                if let event = schedules[index].event {
                    let schedule = schedules[index]
                    // A calendar event: one arrival, due from its leave time until the event starts.
                    // One that has started stays planned while it is `tick`'s to record as missed:
                    // planned before it started, within the week tick looks back, not dealt with.
                    let id = AlertID.schedule(schedule.id, weekday, headsUp: false)
                    let arrival = event.start
                    let unhandled = due.map { due in
                        due.since(of: id).map { ZonedCalendar.seconds($0) < arrival } == true && nowSeconds - arrival < 7 * 86_400
                    } ?? false
                    guard arrival > nowSeconds || unhandled, !pauses.covers(schedule.id, dayNumber: calendar.localDay(of: arrival)),
                        due?.finished[id]?.contains(Date(timeIntervalSince1970: TimeInterval(arrival))) != true
                    else { continue }
                    let leave = LeaveTime.compute(for: schedule, routes: routes, arrival: Date(timeIntervalSince1970: TimeInterval(arrival)), typical: typical, freeFlowMargin: freeFlowMargin, onTime: onTime)
                    let fire = max(ZonedCalendar.seconds(leave.leave), nowSeconds - grace)
                    arrivals[rank << 4 | (weekday.rawValue - 1)] = arrival
                    keys.append(UInt64(fire - nowSeconds + shift) << 28 | UInt64(rank) << 4 | UInt64(weekday.rawValue - 1))
                    continue
                }
                if case .arriveBy(_, let headsUp) = schedules[index].timing {
                    let schedule = schedules[index]
                    let id = AlertID.schedule(schedule.id, weekday, headsUp: false)
                    // The next arrival not yet dealt with and not paused; the alert is due from
                    // its leave time until the arrival itself.
                    var arrival = calendar.nextFire(weekday: weekday, minuteOfDay: minuteOfDay, after: nowSeconds, nowDay: nowDay)
                    while pauses.covers(schedule.id, dayNumber: calendar.localDay(of: arrival))
                        || due?.finished[id]?.contains(Date(timeIntervalSince1970: TimeInterval(arrival))) == true
                    {
                        arrival = calendar.nextFire(weekday: weekday, minuteOfDay: minuteOfDay, after: arrival, nowDay: calendar.localDay(of: arrival))
                    }
                    let leave = LeaveTime.compute(for: schedule, routes: routes, arrival: Date(timeIntervalSince1970: TimeInterval(arrival)), typical: typical, freeFlowMargin: freeFlowMargin, onTime: onTime)
                    // A late plan is due now: it sorts first, like a due occurrence.
                    let fire = max(ZonedCalendar.seconds(leave.leave), nowSeconds - grace)
                    arrivals[rank << 4 | (weekday.rawValue - 1)] = arrival
                    keys.append(UInt64(fire - nowSeconds + shift) << 28 | UInt64(rank) << 4 | UInt64(weekday.rawValue - 1))
                    // The heads-up, for the first arrival whose leave time is still ahead and that
                    // it has not dealt with.
                    if let minutes = headsUp {
                        let headsUpID = AlertID.schedule(schedule.id, weekday, headsUp: true)
                        var next = arrival
                        var leaveSeconds = ZonedCalendar.seconds(leave.leave)
                        while leaveSeconds <= nowSeconds || pauses.covers(schedule.id, dayNumber: calendar.localDay(of: next))
                            || due?.finished[headsUpID]?.contains(Date(timeIntervalSince1970: TimeInterval(next))) == true
                        {
                            next = calendar.nextFire(weekday: weekday, minuteOfDay: minuteOfDay, after: next, nowDay: calendar.localDay(of: next))
                            leaveSeconds = ZonedCalendar.seconds(
                                LeaveTime.compute(for: schedule, routes: routes, arrival: Date(timeIntervalSince1970: TimeInterval(next)), typical: typical, freeFlowMargin: freeFlowMargin, onTime: onTime).leave)
                        }
                        let headsUpFire = max(leaveSeconds - minutes * 60, nowSeconds - grace)
                        arrivals[rank << 4 | 8 | (weekday.rawValue - 1)] = next
                        keys.append(UInt64(headsUpFire - nowSeconds + shift) << 28 | UInt64(rank) << 4 | 8 | UInt64(weekday.rawValue - 1))
                    }
                    continue
                }
                let slot = (weekday.rawValue - 1) * 1_440 + minuteOfDay
                var fire = nextFireByMinuteOfWeek[slot]
                if fire == 0 {
                    fire = calendar.nextFire(weekday: weekday, minuteOfDay: minuteOfDay, after: nowSeconds, nowDay: nowDay)
                    nextFireByMinuteOfWeek[slot] = fire
                }
                // A week on at a time past paused days (a pause is at most two years: bounded).
                if !pauses.pauses.isEmpty {
                    var day = calendar.localDay(of: fire)
                    while pauses.covers(schedules[index].id, dayNumber: day) {
                        fire = calendar.nextFire(weekday: weekday, minuteOfDay: minuteOfDay, after: fire, nowDay: day)
                        day = calendar.localDay(of: fire)
                    }
                }
                // The latest occurrence is about a week before the next (give or take a
                // daylight-saving shift of up to two hours): only a slot whose next fire is nearly
                // a week away can have one inside the grace window.
                if let due, fire - 7 * 86_400 >= nowSeconds - grace - 3 * 3_600 {
                    let latest: Int?
                    if let cached = dueFireByMinuteOfWeek[slot] {
                        latest = cached
                    } else {
                        let found = calendar.latestFire(weekday: weekday, minuteOfDay: minuteOfDay, atOrBefore: nowSeconds, nowDay: nowDay)
                        latest = nowSeconds - found <= grace ? found : nil
                        dueFireByMinuteOfWeek[slot] = latest
                    }
                    if let latest, !pauses.covers(schedules[index].id, dayNumber: calendar.localDay(of: latest)) {
                        let id = AlertID.schedule(schedules[index].id, weekday, headsUp: false)
                        let occurrence = Date(timeIntervalSince1970: TimeInterval(latest))
                        if let since = due.since(of: id), occurrence > since, due.finished[id]?.contains(occurrence) != true {
                            fire = latest
                        }
                    }
                }
                let delay = UInt64(fire - nowSeconds + shift)
                keys.append(delay << 28 | UInt64(rank) << 4 | UInt64(weekday.rawValue - 1))
            }
        }
        RadixSort.sort(&keys)

        // The schedule's fields are read in place: a deferred request (tens of thousands of them)
        // never copies its schedule.
        func request(_ key: UInt64) -> TriggerRequest {
            let rank = Int(key >> 4 & (1 << 24 - 1))
            let weekday = Weekday(rawValue: Int(key & 7) + 1) ?? .sunday
            let isHeadsUp = key & 8 != 0
            let fire = Date(timeIntervalSince1970: TimeInterval(nowSeconds + Int(key >> 28) - shift))
            let arrival = arrivals.isEmpty ? nil : arrivals[Int(key & (1 << 28 - 1))].map { Date(timeIntervalSince1970: TimeInterval($0)) }
            return TriggerRequest(
                scheduleID: ranked[rank].id, weekday: weekday, hour: ranked[rank].hour, minute: ranked[rank].minute,
                nextFire: fire, arrival: arrival, isHeadsUp: isHeadsUp, isOnce: ranked[rank].event != nil)
        }
        let limit = max(0, min(cap, keys.count))
        let scheduled = keys[..<limit].map { key in
            let request = request(key)
            let schedule = ranked[Int(key >> 4 & (1 << 24 - 1))]
            guard let arrival = request.arrival else {
                let content = AlertComposer.content(
                    for: schedule, routes: routes, firesAt: request.nextFire, calendar: calendar)
                return PendingAlert(request: request, content: content)
            }
            // What it will say when it fires: the leave time as planned, or now for a late plan.
            let leave = LeaveTime.compute(for: schedule, routes: routes, arrival: arrival, typical: typical, memory: memory(request), freeFlowMargin: freeFlowMargin, onTime: onTime)
            // Its data's age as of its fire time, as a fixed-time alert's (`pending` moves it on).
            let content = request.isHeadsUp
                ? AlertComposer.headsUpContent(for: schedule, routes: routes, leave: leave, now: max(now, request.nextFire), calendar: calendar)
                : AlertComposer.leaveContent(
                    for: schedule, routes: routes, leave: leave, now: max(now, leave.leave), ageAt: request.nextFire, calendar: calendar)
            return PendingAlert(request: request, content: content, memory: leave.memory)
        }
        // Only the deferred requests asked for are built; the rest are counted and digested.
        let deferred = keys[limit...].prefix(max(0, listing)).map(request)
        let digest = FanOutPlan.digest(keys[limit...].lazy.map { key in
            (ranked[Int(key >> 4 & (1 << 24 - 1))].id, Weekday(rawValue: Int(key & 7) + 1) ?? .sunday, key & 8 != 0)
        })
        return FanOutPlan(requested: keys.count, cap: cap, scheduled: scheduled, deferred: deferred, deferredCount: keys.count - limit, deferredDigest: digest)
    }
}

extension UUID {
    /// The 16 bytes as two big-endian words: compared, they give byte order, which is also the
    /// order of `uuidString`.
    fileprivate var words: (high: UInt64, low: UInt64) {
        withUnsafeBytes(of: uuid) { bytes in
            (UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}

/// Sorts packed request keys a byte at a time (least significant first), passing over the bytes
/// every key shares: for the tens of thousands of keys 3,000 schedules make, several times
/// faster than a comparison sort.
private enum RadixSort {
    static func sort(_ keys: inout [UInt64]) {
        guard keys.count > 64 else { return keys.sort() }
        var spare = [UInt64](repeating: 0, count: keys.count)
        let varying = keys.reduce(0) { $0 | ($1 ^ keys[0]) }
        for shift in stride(from: UInt64(0), to: 64, by: 8) where varying >> shift & 0xFF != 0 {
            var counts = [Int](repeating: 0, count: 256)
            for key in keys { counts[Int(truncatingIfNeeded: key >> shift & 0xFF)] += 1 }
            var total = 0
            for digit in 0..<256 {
                let count = counts[digit]
                counts[digit] = total
                total += count
            }
            for key in keys {
                let digit = Int(truncatingIfNeeded: key >> shift & 0xFF)
                spare[counts[digit]] = key
                counts[digit] += 1
            }
            swap(&keys, &spare)
        }
    }
}
