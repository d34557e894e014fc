import FoundationEssentials

/// The requests a plan holds that it does not list. A plan lists its scheduled requests and the
/// soonest few deferred ones (`PendingBook.listedDeferred`); the rest — nearly all of them at
/// 3,000 schedules — are derived from the schedules it was made from whenever they are needed, and
/// were known, for `tick` and the next plan, since that plan was made: an occurrence after it is
/// theirs to send or record as missed, one before it is not.
public struct KnownRequests: Sendable, Equatable {
    /// When the plan that held them was made.
    public var since: Date
    private var shapes: [UUID: Shape]

    private struct Shape: Sendable, Equatable {
        var days: Set<Weekday>
        var headsUp: Bool
    }

    /// The requests `previous` holds without listing them, made from `schedules`; nil when it lists
    /// every one, or when the schedules it was made from are not known.
    public init?(_ previous: PendingBook, schedules: ScheduleBook?) {
        guard let since = previous.plannedAt, let schedules, previous.deferredCount > previous.deferred.count else { return nil }
        self.since = since
        var shapes: [UUID: Shape] = [:]
        shapes.reserveCapacity(schedules.schedules.count)
        // Read in place: a schedule is a large value, and there may be thousands.
        let all = schedules.schedules
        for index in all.indices where all[index].isEnabled && all[index].event == nil {
            let headsUp = if case .arriveBy(_, let minutes) = all[index].timing { minutes != nil } else { false }
            shapes[all[index].id] = Shape(days: all[index].days, headsUp: headsUp)
        }
        self.shapes = shapes
    }

    /// Whether the plan held this request.
    public func contains(_ id: AlertID) -> Bool {
        guard case .schedule(let scheduleID, let weekday, let headsUp) = id, let shape = shapes[scheduleID] else { return false }
        return shape.days.contains(weekday) && (!headsUp || shape.headsUp)
    }
}
