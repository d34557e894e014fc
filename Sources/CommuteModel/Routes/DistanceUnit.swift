/// How a route's length is shown: in kilometres, or in miles where road signs are in miles.
/// Every view uses the one in force (`config set units`), whatever unit the source measured in.
public enum DistanceUnit: String, CaseIterable, Codable, Sendable {
    case km, mi

    /// The countries whose roads are signed in miles: the United States, the United Kingdom,
    /// Liberia, Myanmar.
    static let milesCountries: Set<String> = ["US", "GB", "LR", "MM"]

    /// The unit of the country a zone is in (`IANAZone.countryCode`); kilometres when unknown.
    public init(countryCode: String?) {
        self = countryCode.map { Self.milesCountries.contains($0) } == true ? .mi : .km
    }

    public static let metresPerMile = 1_609.344

    /// `10.3 mi`, `14.5 km`: one decimal, as every view shows a length.
    public func format(miles: Double) -> String {
        let value = self == .mi ? miles : miles * Self.metresPerMile / 1_000
        return "\(String(cFormat: "%.1f", value)) \(rawValue)"
    }
}
