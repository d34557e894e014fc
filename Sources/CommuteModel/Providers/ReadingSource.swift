/// Who measured a travel time: the feed, a transit agency's realtime feed or a routing provider,
/// as history stores it: a byte per reading, a provider's from its descriptor (`historyCode`).
public struct ReadingSource: Hashable, Sendable {
    public let rawValue: UInt8

    private init(code: UInt8) { rawValue = code }

    /// WSDOT's feed.
    public static let wsdot = ReadingSource(code: 0)
    /// A transit route's door-to-door time as its agency's realtime feed had it.
    public static let transit = ReadingSource(code: 4)
    /// A routing provider's (an open engine's free-flow time is never recorded as history: it is
    /// not a measurement).
    public static func provider(_ provider: RouteProvider) -> ReadingSource { ReadingSource(code: provider.descriptor.historyCode) }

    /// The provider behind each byte (history keeps a source in a record's low four bits), made
    /// once: every record read asks it.
    private static let providers: [RouteProvider?] = {
        var table = [RouteProvider?](repeating: nil, count: 16)
        for provider in RouteProvider.allCases where provider.descriptor.historyCode < 16 { table[Int(provider.descriptor.historyCode)] = provider }
        return table
    }()

    /// Every source, in the order of their bytes.
    public static var allCases: [ReadingSource] {
        (0..<16).compactMap { ReadingSource(rawValue: UInt8($0)) }
    }

    /// The source a byte stands for; nil for a byte no source has.
    public init?(rawValue: UInt8) {
        guard rawValue == Self.wsdot.rawValue || rawValue == Self.transit.rawValue || rawValue < 16 && Self.providers[Int(rawValue)] != nil
        else { return nil }
        self.init(code: rawValue)
    }

    /// The provider that measured it; nil for the feeds.
    public var provider: RouteProvider? { rawValue < 16 ? Self.providers[Int(rawValue)] : nil }

    /// As `history export` writes it and `history import` reads it: `wsdot`, `tomtom`.
    public var name: String {
        if let provider { return provider.rawValue }
        return self == .wsdot ? "wsdot" : "transit"
    }

    /// As an alert says it: `WSDOT reported 760 min`.
    public var displayName: String {
        if let provider { return provider.displayName }
        return self == .wsdot ? "WSDOT" : "The realtime feed"
    }

    public init?(name: String) {
        guard let source = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = source
    }

    /// Where a route's times come from: the feed, or its provider.
    public init(of route: Route) {
        switch route.kind {
        case .feed: self = .wsdot
        case .transitFeed: self = .transit
        case .provider(let custom): self = .provider(custom.provider)
        }
    }
}

extension Route {
    /// `TomTom reported 760 min for Everett-Seattle (usually 35)`: a reading held back, with the
    /// usual time to set it against (the slot's median when given, else the route's usual time).
    public func suspicionText(usual: Double? = nil) -> String {
        let reported = "\(ReadingSource(of: self).displayName) reported \(suspiciousMinutes ?? 0) min for \(name)"
        guard let usual = usual.map(TypicalTime.whole) ?? averageMinutes else { return reported }
        return reported + " (usually \(usual))"
    }
}
