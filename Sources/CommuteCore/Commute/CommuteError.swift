import CommuteModel
/// Why an operation on favorites or schedules was refused. Messages quote the value and say what to do.
public enum CommuteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No schedule ID starts with the text.
    case unknownSchedule(String)
    /// More than one schedule ID starts with the text.
    case ambiguousSchedule(String, matches: [String])
    /// The route cache is empty: nothing has been refreshed yet.
    case noRouteData
    /// `favorites remove` or `move` named a route that is not a favorite.
    case notFavorite(RouteID)
    /// `favorites move --to` named a position outside the list.
    case badPosition(String, count: Int)
    /// A schedule or group names the same route twice.
    case duplicateRoute(RouteID)
    /// No group has this name.
    case unknownGroup(String)
    /// A group with this name exists.
    case duplicateGroup(String)
    /// A group name that is empty, too long, or has a line break.
    case badGroupName(String)
    /// `brief` with no favorites.
    case nothingToBrief
    /// No pause has this number.
    case unknownPause(String)
    /// `route add` named an ID a route already has.
    case routeExists(RouteID)
    /// `route edit` or `route remove` named a route from the feed.
    case notCustom(RouteID)
    /// `notify add --name` gave a name another notifier has.
    case notifierNameTaken(String)
    /// `--notify` named a notifier there is not.
    case unknownNotifier(String)
    /// `reliability` named a schedule that alerts at a time rather than arriving by one.
    case notArriveBy(String)
    /// No commute has this name, and no route this ID.
    case unknownCommute(String)
    /// A commute with this name exists.
    case duplicateCommute(String)
    /// A commute with fewer than two ways, or more than the most.
    case commuteWays(Int)

    public var description: String {
        switch self {
        case .unknownSchedule(let prefix):
            "No schedule ID starts with '\(prefix)'; see `traveltimes schedule list`"
        case .ambiguousSchedule(let prefix, let matches):
            "'\(prefix)' matches \(matches.count) schedules (\(matches.joined(separator: ", "))); type more of the ID"
        case .noRouteData:
            "No route data yet: run `traveltimes refresh --source FILE-OR-URL` first"
        case .notFavorite(let id):
            "Route '\(id)' is not a favorite; see `traveltimes favorites`"
        case .badPosition(let text, let count):
            "Invalid position '\(text)': use a number from 1 to \(count)"
        case .duplicateRoute(let id):
            "Route '\(id)' is listed twice; name each route once"
        case .unknownGroup(let name):
            "No group is named '\(name)'; see `traveltimes group list`"
        case .duplicateGroup(let name):
            "A group named '\(name)' already exists; pick another name or use `traveltimes group edit`"
        case .nothingToBrief:
            "No favorites to brief: add routes with `traveltimes favorites add ID...`"
        case .unknownPause(let number):
            "No pause is numbered '\(number)'; see `traveltimes pause list`"
        case .routeExists(let id):
            "A route with ID '\(id)' already exists; pick another ID or use `traveltimes route edit \(id)`"
        case .notCustom(let id):
            "Route '\(id)' comes from the feed; only custom routes (`traveltimes route add`) can be edited or removed"
        case .notifierNameTaken(let name):
            "A notifier named '\(name)' already exists; pick another name or remove it with `traveltimes notify remove`"
        case .unknownNotifier(let name):
            "No notifier is named '\(name)'; see `traveltimes notify list`"
        case .notArriveBy(let id):
            "Schedule \(id) alerts at a time: reliability is for schedules that arrive by one (--arrive-by)"
        case .unknownCommute(let name):
            "No commute is named '\(name)', and no route has that ID; see `traveltimes commute list`"
        case .duplicateCommute(let name):
            "A commute named '\(name)' already exists; pick another name or remove it with `traveltimes commute remove`"
        case .commuteWays(let count):
            "A commute has 2 to \(RouteGroup.mostWays) ways (routes) to compare; \(count) given"
        case .badGroupName(let name):
            "Invalid group name '\(name)': use 1 to 40 characters on one line, without control characters"
        }
    }
}
