/// Why a schedule, a time, a day or a route ID was refused. Messages quote the bad value.
public enum ModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A schedule with no route.
    case noRoutes
    /// A schedule with no day.
    case noDays
    /// A time of day that cannot be read.
    case badTime(String)
    /// A day name that cannot be read.
    case badDay(String)
    /// A route ID that is not a whole number as the feed uses.
    case badRouteID(String)
    /// A route ID that the route cache does not have.
    case unknownRoute(RouteID)
    /// A route that is not a favorite, where only favorites may go.
    case notFavorite(RouteID)
    /// A delay threshold that is not a whole number of minutes ≥ 1.
    case badThreshold(String)
    /// An `--on-time` share that is not 50% to 100%, or on a schedule that does not arrive by a time.
    case badOnTime(String)

    public var description: String {
        switch self {
        case .noRoutes:
            "No route given: name one or more with --route ID (or --route 1,4), as `traveltimes routes` lists them"
        case .noDays:
            "No day given: use --days weekdays, weekends, daily, or day names such as mon,wed,fri"
        case .badTime(let value):
            "Invalid time '\(value)': use a time such as 7:00, 07:00, 16:30, 7:00am or 4:30 PM"
        case .badDay(let value):
            "Invalid day '\(value)': use weekdays, weekends, daily, or day names such as mon,wed,fri"
        case .badRouteID(let value):
            "Invalid route ID '\(value)': route IDs are numbers from the feed, or a custom route's lowercase letters, digits and dashes (home-work), as `traveltimes routes` lists them"
        case .unknownRoute(let value):
            "Unknown route ID '\(value)': it is not in the route cache; see `traveltimes routes`"
        case .notFavorite(let value):
            "Route '\(value)' is not a favorite: add it first with `traveltimes favorites add \(value)`"
        case .badThreshold(let value):
            "Invalid delay threshold '\(value)': use a whole number of minutes, 1 or more, or 'off'"
        case .badOnTime(let value):
            "Invalid --on-time '\(value)': use a share from 50% to 100% (such as 95%), on a schedule with --arrive-by, or 'off'"
        }
    }
}
