import Basics
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore

/// Where a calendar's events are, for a calendar that routes from a place to each event (`calendar
/// add --from PLACE --provider P`): the event's GEO (or Apple's structured location), else a saved
/// place whose name is its LOCATION, else its LOCATION found by Nominatim — once ever (the answer is
/// kept with the searches), and at most `CalendarSource.lookupsPerReading` new ones a reading.
final class EventPlaces {
    enum Destination {
        case found(Coordinate, label: String)
        /// Why not: no location, not found, not looked up yet.
        case missing(String)
    }

    let commute: Commute
    let source: CalendarSource
    let origin: Coordinate
    let book: PlaceBook
    let access: Places.SearchAccess?
    let timeout: TimeInterval
    private var lookups = 0
    private var answers: [String: Destination] = [:]

    init(commute: Commute, source: CalendarSource, access: Places.SearchAccess?, timeout: TimeInterval) throws {
        self.commute = commute
        self.source = source
        origin = try commute.places.point(source.from ?? "")
        book = try commute.store.read(PlaceBook.self)
        self.access = access
        self.timeout = timeout
    }

    func destination(of occurrence: CalendarOccurrence) -> Destination {
        if let point = occurrence.place { return .found(point, label: occurrence.location.map(Self.label) ?? point.description) }
        guard let location = occurrence.location?.trimmingWhitespace(), !location.isEmpty else { return .missing("no location") }
        if let saved = book.places.first(where: { $0.name == location.lowercased() }), let point = saved.coordinate {
            return .found(point, label: saved.name)
        }
        let key = location.lowercased()
        if let known = answers[key] { return known }
        let answer: Destination
        do {
            let mayAsk = access != nil && lookups < CalendarSource.lookupsPerReading
            switch try commute.places.locate(location, access: mayAsk ? access : nil, timeout: timeout) {
            case .some(.some(let candidate)):
                answer = candidate.coordinate.map { .found($0, label: Self.label(location)) } ?? .missing("place not found")
            case .some(.none):
                answer = .missing("place not found")
            case .none:
                answer = .missing("place not looked up yet")
            }
            if mayAsk { lookups += 1 }
        } catch {
            answer = .missing("place not found: \(DisplayText.line(String(String(describing: error).prefix(120))))")
        }
        answers[key] = answer
        return answer
    }

    /// The route from the calendar's place to `point`: one per place, its ID stable.
    func route(to point: Coordinate, label: String, provider: RouteProvider) -> Route {
        var hasher = StableHash()
        hasher.combine(point.description)
        let id = RouteID(source.routePrefix + String(hasher.uuid.lowercasedString.prefix(8)))
        let from = commute.places.name(of: origin) ?? origin.description
        var custom = Route.Custom(provider: provider, from: origin, to: point)
        custom.calendar = source.name
        return CustomRoutes.customRoute(id: id, name: "\(from) → \(label)", custom: custom, at: commute.now)
    }

    /// A location as a route's name may show it: one line, 40 characters.
    static func label(_ location: String) -> String {
        let line = DisplayText.line(location.trimmingWhitespace())
        return line.count > 40 ? String(line.prefix(39)) + "…" : line
    }
}
