import Basics
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

/// A place saved by name (`home`, `office`): where it is, the label a search found for it, and
/// where it came from. `--from` and `--to` take its name wherever they take `LAT,LON`.
public struct Place: Codable, Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var label: String?
    /// `coordinates` (typed in), `nominatim` or `transitous` (found by a search).
    public var source: String

    public init(name: String, coordinate: Coordinate, label: String?, source: String) {
        self.name = name
        latitude = coordinate.latitude
        longitude = coordinate.longitude
        self.label = label
        self.source = source
    }

    public var coordinate: Coordinate? { Coordinate(latitude: latitude, longitude: longitude) }

    /// 1 to 40 lowercase letters, digits and dashes, starting with a letter: never a coordinate.
    public static func isValidName(_ name: String) -> Bool { TransitFeed.isValidName(name) }
}

/// `places.json`: the places saved, and the searches made (each service's answer kept, so the
/// same text is never asked twice: the public geocoders ask to be cached). Part of the routes
/// domain.
public struct PlaceBook: StoreDocument, Equatable {
    public static let fileName = "places.json"
    public static let domain = StoreDomain.routes

    /// One search and what it found.
    public struct Search: Codable, Sendable, Equatable {
        public var geocoder: Geocoder
        public var text: String
        public var at: Date
        public var candidates: [PlaceCandidate]
    }

    public var version: Int
    public var places: [Place]
    public var searches: [Search]

    public init(places: [Place] = [], searches: [Search] = []) {
        version = Self.currentVersion
        self.places = places
        self.searches = searches
    }

    public static var empty: PlaceBook { PlaceBook() }

    public static let largestPlaceCount = 200
    /// The most searches remembered: the oldest are forgotten first.
    public static let largestSearchCount = 100

    public func validate() throws(DocumentProblem) {
        try DocumentProblem.check(places.count <= Self.largestPlaceCount, "places holds over \(Self.largestPlaceCount) places")
        try DocumentProblem.check(searches.count <= Self.largestSearchCount, "searches holds over \(Self.largestSearchCount) searches")
        var seen = Set<String>()
        for (index, place) in places.enumerated() {
            try DocumentProblem.check(Place.isValidName(place.name), "places[\(index)].name is not a place name")
            try DocumentProblem.check(seen.insert(place.name).inserted, "places[\(index)].name repeats another place's")
            try DocumentProblem.check(place.coordinate != nil, "places[\(index)] is not a point on the Earth")
            try DocumentProblem.check((place.label ?? "").utf8.count <= 400, "places[\(index)].label is too long")
            try DocumentProblem.check(place.label.map { DisplayText.line($0) == $0 } ?? true, "places[\(index)].label holds control characters")
            try DocumentProblem.check((["coordinates"] + Geocoder.allCases.map(\.rawValue)).contains(place.source), "places[\(index)].source is not coordinates, nominatim or transitous")
        }
        for (index, search) in searches.enumerated() {
            try DocumentProblem.check(search.candidates.count <= Geocoder.candidateCount, "searches[\(index)] holds too many candidates")
            try DocumentProblem.check(search.candidates.allSatisfy { $0.coordinate != nil }, "searches[\(index)] has a point off the Earth")
            try DocumentProblem.check(
                search.candidates.allSatisfy { $0.label.utf8.count <= 400 && DisplayText.line($0.label) == $0.label },
                "searches[\(index)] has a label too long or with control characters")
        }
    }

    public func place(named name: String) -> Place? { places.first { $0.name == name } }
}
