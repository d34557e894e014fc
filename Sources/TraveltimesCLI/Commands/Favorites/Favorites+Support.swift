import CommuteCore
import FoundationEssentials

extension Commands {
    /// `This will remove …` — names everything the removal destroys.
    static func consequence(of cascade: FavoriteRoutes.Cascade, _ routes: [RouteID: Route]) -> String {
        var text = "This will remove \(describe(cascade.removedFavorites, routes)) from your favorites"
        if !cascade.trimmed.isEmpty {
            let names = cascade.trimmed.map { "\($0.before.timeLabel) on \($0.before.daysLabel)" }
            text += ", and from the schedule\(cascade.trimmed.count == 1 ? "" : "s") at \(names.joined(separator: "; "))"
        }
        text += "."
        for schedule in cascade.deleted {
            text += " This will stop notifications at \(schedule.timeLabel) on \(schedule.daysLabel) (the schedule has no other route)."
        }
        for group in cascade.deletedGroups {
            text += " The group '\(group.name)' will be deleted (it has no other route)."
        }
        return text
    }

    /// `96 (Seattle-Bellevue via 90), 1 (Everett-Seattle)`.
    static func describe(_ ids: [RouteID], _ routes: [RouteID: Route]) -> String {
        ids.map { id in routes[id].map { "\(id) (\($0.name))" } ?? id }.joined(separator: ", ")
    }

    static func routeCount(_ count: Int) -> String { count == 1 ? "1 route" : "\(count) routes" }

    /// The first 8 characters of a schedule's ID: enough to name it, and accepted as a prefix.
    static func shortID(_ schedule: Schedule) -> String { schedule.id.shortForm }
}
