import Basics
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore

extension Schedules {
    /// The local date now, in the schedules' zone.
    /// The pauses still to come or under way, for schedules that exist; ended ones and those of
    /// deleted schedules are left out (and pruned at the next change).
    public static func activePauses(_ book: ScheduleBook, today: CivilDate) -> [Pause] {
        let ids = Set(book.schedules.map(\.id))
        return (book.pauses ?? []).filter { !$0.hasEnded(before: today) && ($0.scheduleID.map(ids.contains) ?? true) }
    }

    public func pauses() throws -> [Pause] { Self.activePauses(try store.schedules(), today: today) }

    /// Adds a pause (the schedule, if any, named by an ID prefix), prunes the ended ones, and
    /// re-plans: the paused occurrences leave the plan, and later ones take their places.
    public func addPause(from: CivilDate, until: CivilDate, schedule prefix: String?, reason: String?) throws -> Commute.Replanned<Pause> {
        try commute.changeSchedules { _, book -> Pause in
            let schedule = try prefix.map { try Commute.find($0, in: book.schedules) }
            var kept = Self.activePauses(book, today: today)
            let pause = Pause(
                number: min((kept.map(\.number).max() ?? 0) + 1, Pause.largestNumber), from: from, until: until,
                scheduleID: schedule?.id, reason: reason)
            kept.append(pause)
            book.pauses = kept
            return pause
        }
    }

    /// Removes one pause by number; the occurrences it held back are planned again.
    public func removePause(_ number: Int) throws -> Commute.Replanned<Pause> {
        try commute.changeSchedules { _, book -> Pause in
            var kept = Self.activePauses(book, today: today)
            guard let index = kept.firstIndex(where: { $0.number == number }) else { throw CommuteError.unknownPause(String(number)) }
            let pause = kept.remove(at: index)
            book.pauses = kept.isEmpty ? nil : kept
            return pause
        }
    }

    /// Removes every pause; how many were in force.
    public func clearPauses() throws -> Commute.Replanned<Int> {
        try commute.changeSchedules { _, book -> Int in
            let count = Self.activePauses(book, today: today).count
            book.pauses = nil
            return count
        }
    }
}
