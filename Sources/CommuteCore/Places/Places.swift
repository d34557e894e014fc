import Basics
import CommuteModel
import CommuteSources
import FoundationEssentials
@_spi(Store) import CommuteStore

/// Places saved by name, and finding them by text.
extension Places {
    /// How a search reaches its geocoder.
    public struct SearchAccess: Sendable {
        public var client: any HTTPClient
        public var baseURLs: [Geocoder: String]
        public var userAgent: String
        public var wallClock: @Sendable () -> Date
        public var sleep: @Sendable (TimeInterval) -> Void

        public init(
            client: any HTTPClient, baseURLs: [Geocoder: String], userAgent: String, wallClock: @escaping @Sendable () -> Date = { Date() },
            sleep: @escaping @Sendable (TimeInterval) -> Void = { sleepFor($0) }
        ) {
            self.client = client
            self.baseURLs = baseURLs
            self.userAgent = userAgent
            self.wallClock = wallClock
            self.sleep = sleep
        }
    }

    /// Why a place cannot be saved or found.
    public enum PlaceProblem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidName(String)
        case exists(String)
        case unknown(String)
        case tooMany
        case nothingFound(String, Geocoder)
        case noSuchCandidate(Int, count: Int)
        case geocoderFailed(Geocoder, String)
        case noTurn(Geocoder)

        public var description: String {
            switch self {
            case .invalidName(let name):
                "'\(DisplayText.line(name))' is not a place name: 1 to 40 lowercase letters, digits and dashes, starting with a letter (home, office-2)"
            case .exists(let name): "a place called \(name) exists: `traveltimes place remove \(name)` first"
            case .unknown(let name): "no place called \(DisplayText.line(name)) (see `traveltimes place list`)"
            case .tooMany: "there are \(PlaceBook.largestPlaceCount) places already: remove one first"
            case .nothingFound(let text, let geocoder): "\(geocoder.displayName) found nothing for \"\(DisplayText.line(text))\""
            case .noSuchCandidate(let pick, let count): "--pick \(pick): the search found \(count) place\(count == 1 ? "" : "s")"
            case .geocoderFailed(let geocoder, let reason): "\(geocoder.displayName) could not search: \(reason)"
            case .noTurn(let geocoder): "\(geocoder.displayName) allows one request a second, and the turn did not come in time: try again"
            }
        }
    }

    /// What a search came to: a place saved, or candidates to choose from (nothing saved).
    public enum SearchOutcome: Sendable, Equatable {
        case saved(Place, fromCache: Bool)
        case ambiguous([PlaceCandidate])
    }

    public func list() throws -> [Place] { try store.read(PlaceBook.self).places }

    /// Saves `name` at `coordinate`.
    public func add(_ name: String, at coordinate: Coordinate, label: String? = nil, source: String = "coordinates") throws -> Place {
        guard Place.isValidName(name) else { throw PlaceProblem.invalidName(name) }
        let place = Place(name: name, coordinate: coordinate, label: label, source: source)
        try store.update(PlaceBook.self) { book in
            guard book.place(named: name) == nil else { throw PlaceProblem.exists(name) }
            guard book.places.count < PlaceBook.largestPlaceCount else { throw PlaceProblem.tooMany }
            book.places.append(place)
        }
        return place
    }

    public func remove(_ name: String) throws -> Place {
        try store.update(PlaceBook.self) { book in
            guard let index = book.places.firstIndex(where: { $0.name == name }) else { throw PlaceProblem.unknown(name) }
            return book.places.remove(at: index)
        }
    }

    /// `LAT,LON`, or a saved place's name: the point it stands for. Throws for a name not saved.
    public func point(_ text: String) throws -> Coordinate {
        if let point = Coordinate(text) { return point }
        guard let place = try store.read(PlaceBook.self).place(named: text), let point = place.coordinate else {
            throw PlaceProblem.unknown(text)
        }
        return point
    }

    /// The name a point was given, when it is a saved place's (for showing a route's ends).
    public func name(of point: Coordinate) -> String? {
        (try? store.read(PlaceBook.self))?.places.first { $0.coordinate == point }?.name
    }

    /// Finds `text` with `geocoder` (once: a search made before is answered from the store) and
    /// saves the place found as `name` — the one result, or the `pick`th (from 1). Several
    /// results and no pick save nothing and come back to be listed.
    public func search(
        _ text: String, as name: String, geocoder: Geocoder, pick: Int?, access: SearchAccess, timeout: TimeInterval
    ) throws -> SearchOutcome {
        guard Place.isValidName(name) else { throw PlaceProblem.invalidName(name) }
        if try store.read(PlaceBook.self).place(named: name) != nil { throw PlaceProblem.exists(name) }
        let key = text.trimmingWhitespace().lowercased()
        var fromCache = true
        var candidates = try store.read(PlaceBook.self).searches.first { $0.geocoder == geocoder && $0.text == key }?.candidates
        if candidates == nil {
            fromCache = false
            let found = try ask(geocoder, for: key, access: access, timeout: timeout)
            try store.update(PlaceBook.self) { book in
                book.searches.removeAll { $0.geocoder == geocoder && $0.text == key }
                book.searches.append(PlaceBook.Search(geocoder: geocoder, text: key, at: now, candidates: found))
                if book.searches.count > PlaceBook.largestSearchCount { book.searches.removeFirst(book.searches.count - PlaceBook.largestSearchCount) }
            }
            candidates = found
        }
        let found = candidates ?? []
        guard let first = found.first else { throw PlaceProblem.nothingFound(text, geocoder) }
        let chosen: PlaceCandidate
        if let pick {
            guard (1...found.count).contains(pick) else { throw PlaceProblem.noSuchCandidate(pick, count: found.count) }
            chosen = found[pick - 1]
        } else if found.allSatisfy({ Self.metres(from: first, to: $0) < 200 }) {
            // Several answers for one spot (a station and its entrance) are one place.
            chosen = first
        } else {
            return .ambiguous(found)
        }
        guard let point = chosen.coordinate else { throw PlaceProblem.nothingFound(text, geocoder) }
        return .saved(try add(name, at: point, label: chosen.label, source: geocoder.rawValue), fromCache: fromCache)
    }

    /// Where Nominatim puts `text`, asked once ever (the answer, found or not, is kept with the
    /// searches): the first result; nil when it found nothing. With no `access`, only a search
    /// made before answers: `.some(nil)` is "found nothing", nil "not asked yet".
    public func locate(_ text: String, access: SearchAccess?, timeout: TimeInterval) throws -> PlaceCandidate?? {
        let key = String(text.trimmingWhitespace().lowercased().prefix(Geocoder.longestText))
        if let search = try store.read(PlaceBook.self).searches.first(where: { $0.geocoder == .nominatim && $0.text == key }) {
            return .some(search.candidates.first)
        }
        guard let access else { return nil }
        let found = try ask(.nominatim, for: key, access: access, timeout: timeout)
        try store.update(PlaceBook.self) { book in
            book.searches.removeAll { $0.geocoder == .nominatim && $0.text == key }
            book.searches.append(PlaceBook.Search(geocoder: .nominatim, text: key, at: now, candidates: found))
            if book.searches.count > PlaceBook.largestSearchCount { book.searches.removeFirst(book.searches.count - PlaceBook.largestSearchCount) }
        }
        return .some(found.first)
    }

    private func ask(_ geocoder: Geocoder, for text: String, access: SearchAccess, timeout: TimeInterval) throws -> [PlaceCandidate] {
        let base = access.baseURLs[geocoder] ?? geocoder.defaultBaseURL
        guard let request = geocoder.request(for: String(text.prefix(Geocoder.longestText)), base: base, userAgent: access.userAgent) else {
            throw PlaceProblem.geocoderFailed(geocoder, "no request can be made to \(base)")
        }
        // One request a second for all users of the public Nominatim: here, for every process.
        let pace = store.pace(named: "\(geocoder.rawValue)-search", perMinute: 30)
        guard try pace.admit(latest: access.wallClock().addingTimeInterval(timeout), clock: access.wallClock, sleep: access.sleep) else {
            throw PlaceProblem.noTurn(geocoder)
        }
        let response: HTTPResponse
        do {
            response = try access.client.get(request.url, headers: request.headers, timeout: timeout)
        } catch HTTPClientError.helperMissing(let path) {
            throw FetchError.helperMissing(path: path)
        } catch HTTPClientError.tooLarge(let limit) {
            throw PlaceProblem.geocoderFailed(geocoder, "the answer is over \(limit) bytes")
        } catch {
            throw PlaceProblem.geocoderFailed(geocoder, DisplayText.line(String(String(describing: error).prefix(200))))
        }
        switch geocoder.candidates(in: response) {
        case .success(let found): return found
        case .failure(let fault): throw PlaceProblem.geocoderFailed(geocoder, fault.description)
        }
    }

    /// The distance between two candidates, near enough (an equirectangular approximation).
    static func metres(from a: PlaceCandidate, to b: PlaceCandidate) -> Double {
        let radians = Double.pi / 180
        let x = (b.longitude - a.longitude) * radians * cos((a.latitude + b.latitude) / 2 * radians)
        let y = (b.latitude - a.latitude) * radians
        return (x * x + y * y).squareRoot() * 6_371_000
    }
}
