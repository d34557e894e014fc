import Basics
import FoundationEssentials

/// The routing services' requests and answers, as each documents them (each provider's
/// file names its documentation): pure values in, pure values out. The HTTP goes through the fetch
/// helper; the key reaches it inside the request on stdin, never in argv.
public enum RoutingAPI {
    /// One request, ready for an `HTTPClient`.
    public struct Request: Sendable, Equatable {
        public var url: URL
        /// Nil for GET; the JSON body of a POST.
        public var body: Data?
        public var headers: [String: String]

        public init(url: URL, body: Data?, headers: [String: String]) {
            self.url = url
            self.body = body
            self.headers = headers
        }
    }

    /// A provider's answer, reduced to what a route holds.
    public struct Measurement: Sendable, Equatable {
        /// With traffic, now.
        public var currentMinutes: Int
        /// Usual for the time of day (TomTom's historic time, HERE's typical duration) or without
        /// traffic (Google's static duration; TomTom's when it gives no historic time); nil when
        /// not given.
        public var usualMinutes: Int?
        public var distanceMiles: Double?
        /// A transit planner's itineraries, soonest first: each a departure from the door with
        /// its legs. Nil for a car provider.
        public var itineraries: [TransitDeparture]?
        /// Where a car route runs and the motorways it uses, where the engine drew it (OSRM,
        /// Valhalla): what incident feeds are held against.
        public var line: RouteLine?
        /// The times to the second, as answered: a leave time is planned on them, not on the
        /// rounded minutes.
        public var currentSeconds: Double? = nil
        public var usualSeconds: Double? = nil
    }

    /// Why an answer holds no travel time.
    public enum Fault: Error, Sendable, Equatable {
        /// 401 or 403 (or Google's "API key not valid"): the key is wrong, or not allowed this API.
        case keyRejected(String)
        /// The provider found no route between the two points.
        case noRoute(String)
        /// 429: too many requests; `retryAfter` seconds, when the provider said.
        case rateLimited(retryAfter: TimeInterval?)
        /// 5xx: the provider's trouble; tried again while the deadline allows.
        case server(status: Int)
        /// Any other refusal (400 with a reason): trying again would not help.
        case refused(String)
        /// A 200 that is not the documented shape.
        case badAnswer(String)
    }

    /// The most bytes a provider's answer may have: a summary is a few hundred bytes, five
    /// itineraries without geometry some kilobytes — but a transit planner's answer carries its
    /// service alerts, repeated on every leg and stop (a real one: 6.7 MB for one ride), and is read
    /// as it streams (`MOTISPlanReader`). The client is given the largest; each provider's own
    /// bound is `maximumAnswerBytes(of:)`.
    public static let maximumAnswerBytes = 16 << 20

    /// A provider's own bound: a car provider's answer is built whole, so it is kept small.
    public static func maximumAnswerBytes(of provider: RouteProvider) -> Int { provider.isTransit ? maximumAnswerBytes : 2 << 20 }

    /// Reads a base URL that replaces `https://api.tomtom.com` and the like: http(s), a host, and
    /// perhaps a port and a path prefix (a proxy). Nil for anything else.
    public static func baseURL(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, components.user == nil
        else { return nil }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The request for one route, built by its provider's service with the key made safe for a URL.
    public static func request(for custom: Route.Custom, key: String, base: String, query: RoutingQuery) -> Request? {
        custom.provider.service.request(
            from: custom.from, to: custom.to, key: key.percentEncoded(keeping: unreserved), base: base, query: query)
    }

    static let unreserved = ScalarSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// What an answer says: a measurement, or the fault. Messages quoted from the provider are one
    /// line, without control characters, and short; the caller removes the key from them.
    /// With `query`, a planner's itineraries far from the time asked are not an answer to it.
    public static func interpret(_ response: HTTPResponse, from provider: RouteProvider, query: RoutingQuery? = nil) -> Result<Measurement, Fault> {
        let service = provider.service
        let message = providerMessage(response.body)
        switch response.status {
        case 200: break
        case 401 where provider.needsKey, 403 where provider.needsKey: return .failure(.keyRejected(message ?? "HTTP \(response.status)"))
        case 429:
            let seconds = response.headers["retry-after"].flatMap { NumberParsing.decimal($0) }.flatMap { $0 >= 0 && $0 <= 3_600 ? $0 : nil }
            return .failure(.rateLimited(retryAfter: seconds))
        case 500...599: return .failure(.server(status: response.status))
        case 403: return .failure(service.fault(status: 403, code: nil, message: message ?? plainText(response.body)) ?? .refused("HTTP 403"))
        default:
            if let fault = service.fault(status: response.status, code: errorCode(response.body), message: message) { return .failure(fault) }
            return .failure(.refused("HTTP \(response.status)" + (message.map { ": \($0)" } ?? "")))
        }
        guard response.body.count <= maximumAnswerBytes(of: provider) else {
            return .failure(.badAnswer("the answer is over \(maximumAnswerBytes(of: provider) >> 20) MiB"))
        }
        guard let object = service.answer(response.body) else {
            return .failure(.badAnswer("the answer is not a JSON object"))
        }
        do {
            return try query.map { try service.measurement(in: object, query: $0) } ?? service.measurement(in: object)
        } catch let problem as Field.Problem {
            return .failure(.badAnswer(problem.reason))
        } catch {
            return .failure(.badAnswer("\(error)"))
        }
    }

    /// The fields of an answer, each checked on its own: absent (or null) is nil; present, it must
    /// be a plausible value, else the whole answer is refused naming the field.
    package enum Field {
        package struct Problem: Error { var reason: String; package init(_ reason: String) { self.reason = reason } }

        /// Seconds of travel: a number (or Google's `"1510s"`, with `text`) from 0 to a day.
        package static func seconds(_ value: Any?, _ name: String, required: Bool = false, text: Bool = false) throws -> Double? {
            guard let value, !(value is JSONNull) else {
                if required { throw Problem("\(name) is missing") }
                return nil
            }
            let seconds = text ? googleSeconds(value) : value as? Double
            guard let seconds else { throw Problem("\(name) is not a number of seconds") }
            guard seconds.isFinite, (0...Double(Route.longestTravelMinutes * 60)).contains(seconds) else {
                throw Problem("\(name) of \(display(seconds)) s is not a travel time (0 to a day)")
            }
            return seconds
        }

        /// Metres of road: a number from 0 to `Route.longestDistanceMiles`.
        package static func metres(_ value: Any?, _ name: String) throws -> Double? {
            guard let value, !(value is JSONNull) else { return nil }
            guard let metres = value as? Double else { throw Problem("\(name) is not a number of metres") }
            guard metres.isFinite, (0...Route.longestDistanceMiles * 1_609.344).contains(metres) else {
                throw Problem("\(name) of \(display(metres)) m is not a road's length")
            }
            return metres
        }

        /// `-300`, `1e+308`: short, whatever the value.
        static func display(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(cFormat: "%g", value)
        }

        /// Google's durations: `"1510s"` (fractions allowed).
        private static func googleSeconds(_ value: Any) -> Double? {
            guard let text = value as? String, text.hasSuffix("s"), text.count <= 20 else { return nil }
            return NumberParsing.decimal(String(text.dropLast()))
        }
    }

    /// Seconds become minutes rounded to the nearest (at least 1), metres become miles; a value no
    /// road could have is a bad answer, never arithmetic that traps.
    package static func measurement(now: Double?, usual: Double?, metres: Double?) -> Result<Measurement, Fault> {
        let longest = Double(Route.longestTravelMinutes * 60)
        guard let now, (0...longest).contains(now) else { return .failure(.badAnswer("no travel time of at most a day in the answer")) }
        func minutes(_ seconds: Double) -> Int { max(1, Int((seconds / 60).rounded())) }
        // No road between two different points takes no time: 0 s is an answer gone wrong, not
        // "1 min". Under a minute otherwise shows as 1 min.
        guard now > 0 else { return .failure(.badAnswer("a travel time of 0 s, which no route between two points takes")) }
        // Nor is a route of no length one that takes any time: the engine routed nowhere.
        if let metres, metres.isFinite, metres < 1 {
            return .failure(.badAnswer("a route of 0 m taking \(minutes(now)) min, which no route between two points is"))
        }
        // A usual time of 0 s is no usual time.
        let usualMinutes = usual.flatMap { (0...longest).contains($0) && $0 > 0 ? minutes($0) : nil }
        let miles = metres.flatMap { metres -> Double? in
            let miles = metres / 1_609.344
            return (0...Route.longestDistanceMiles).contains(miles) ? (miles * 100).rounded() / 100 : nil
        }
        var measurement = Measurement(currentMinutes: minutes(now), usualMinutes: usualMinutes, distanceMiles: miles)
        measurement.currentSeconds = now
        measurement.usualSeconds = usualMinutes == nil ? nil : usual
        return .success(measurement)
    }

    /// The message an error body carries, in any of the three shapes: TomTom's
    /// `detailedError.message`, HERE's `error_description`, `title` or `cause`, Google's
    /// `error.message`.
    static func providerMessage(_ body: Data) -> String? {
        guard let object = JSONReader.any(body.prefix(65_536)) as? [String: Any] else { return nil }
        let candidates: [Any?] = [
            (object["detailedError"] as? [String: Any])?["message"], (object["error"] as? [String: Any])?["message"],
            object["error_description"], object["cause"], object["title"], object["error"] as? String, object["message"],
        ]
        guard let text = candidates.lazy.compactMap({ $0 as? String }).first(where: { !$0.isEmpty }) else { return nil }
        return DisplayText.line(String(text.prefix(200)))
    }

    /// What an open engine's operators ask to be shown with its routes: the engine, OpenStreetMap's
    /// credit, and where to fix the map.
    public static func engineAttribution(_ provider: RouteProvider) -> String {
        "Route by \(provider.displayName) · map data © OpenStreetMap contributors (openstreetmap.org/copyright) · fix the map: openstreetmap.org/fixthemap"
    }

    /// A short plain-text body (a proxy's refusal), as one line.
    public static func plainText(_ body: Data) -> String? {
        let text = DisplayText.line(String(decoding: body.prefix(200), as: UTF8.self)).trimmingWhitespace()
        return text.isEmpty || text.hasPrefix("<") ? nil : text
    }

    /// TomTom's `detailedError.code` or Google's `error.details[].reason`/`error.status`.
    private static func errorCode(_ body: Data) -> String? {
        guard let object = JSONReader.any(body.prefix(65_536)) as? [String: Any] else { return nil }
        if let code = (object["detailedError"] as? [String: Any])?["code"] as? String { return code }
        if let code = object["code"] as? String { return code }
        if let error = object["error"] as? [String: Any] {
            for case let detail as [String: Any] in (error["details"] as? [Any]) ?? [] {
                if let reason = detail["reason"] as? String { return reason }
            }
            return error["status"] as? String
        }
        return nil
    }
}
