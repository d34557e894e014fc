import FoundationEssentials

/// Where a refresh reads the feed: an `http(s)://` URL or a local file.
public enum FeedSource: Sendable, Equatable {
    /// WSDOT's travel-times feed, the one a user in Washington sets as the source.
    public static let wsdotURL = "https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson"

    case url(URL)
    case file(String)

    /// Reads the text a user gave (`--source`, `TRAVELTIMES_SOURCE`, the configuration): a URL
    /// for `http://` and `https://`, else a file path. Nil for text that starts as a URL and is
    /// not one (`http://` alone has no host): no request could ever succeed.
    public init?(_ text: String) {
        guard Self.looksLikeURL(text) else {
            self = .file(text)
            return
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else { return nil }
        self = .url(url)
    }

    public static func looksLikeURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The source as it may be shown and stored: a file path as it is; a URL without its user,
    /// password and query values, which are credentials as often as not
    /// (`https://REDACTED@host/feed?token=REDACTED`).
    /// The source `refresh` reads, as it is chosen everywhere it is shown: `--source`, else
    /// `TRAVELTIMES_SOURCE`, else `config set source`; an empty one is none.
    public static func effective(argument: String?, environment: [String: String], saved: String?) -> String? {
        (argument ?? environment[.source] ?? saved).flatMap { $0.isEmpty ? nil : $0 }
    }

    public static func display(_ text: String) -> String {
        guard looksLikeURL(text) else { return text }
        guard let components = URLComponents(string: text), let scheme = components.scheme, let host = components.percentEncodedHost
        else { return "(a URL that cannot be read)" }
        var shown = "\(scheme)://"
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil { shown += "REDACTED@" }
        shown += host + (components.port.map { ":\($0)" } ?? "") + components.percentEncodedPath
        if let items = components.percentEncodedQueryItems, !items.isEmpty {
            shown += "?" + items.map { $0.value == nil ? $0.name : "\($0.name)=REDACTED" }.joined(separator: "&")
        }
        return shown
    }

    /// The secret parts of a source — a URL's user, password and query values — to be removed
    /// from any message that might quote them in its own way.
    public static func secrets(in text: String) -> [String] {
        guard looksLikeURL(text), let components = URLComponents(string: text) else { return [] }
        // The user and password go out as `Basic base64(user:password)`: a server that quotes its
        // request headers back quotes that.
        let basic = components.user.map { Data("\($0):\(components.password ?? "")".utf8).base64EncodedString() }
        let values = [components.user, components.password, components.percentEncodedUser, components.percentEncodedPassword, basic]
            + (components.queryItems ?? []).map(\.value) + (components.percentEncodedQueryItems ?? []).map(\.value)
        // Short values (`format=json`) would redact ordinary words from every message.
        return Array(Set(values.compactMap { $0 }.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
    }

    /// A URL's secret parts where the path may hold one too (an agency's key, a calendar's secret
    /// address): those of `secrets(in:)`, the path whole (a server's error quotes it), and a path
    /// segment alone only when it looks like a key (`a1b2c3d4e5`, not `realtime`): the words
    /// around a secret are not secrets, and redacting them would garble every message.
    public static func pathSecrets(in text: String) -> [String] {
        guard looksLikeURL(text), let components = URLComponents(string: text) else { return [] }
        let path = components.percentEncodedPath
        var found = secrets(in: text)
        if path.count >= 4 { found += [path, path.percentDecoded ?? path] }
        for segment in path.split(separator: "/") {
            let raw = String(segment)
            let decoded = raw.percentDecoded ?? raw
            if looksLikeKey(raw) { found.append(raw) }
            if looksLikeKey(decoded) { found.append(decoded) }
        }
        return Array(Set(found)).sorted { $0.count > $1.count }
    }

    /// Whether a path segment looks like a key rather than a word: 8 characters or more, letters
    /// and digits mixed (hex, base64, a UUID), or 20 or more.
    public static func looksLikeKey(_ segment: String) -> Bool {
        guard segment.count >= 8 else { return false }
        let hasDigit = segment.contains { $0.isASCII && $0.isNumber }
        let hasLetter = segment.contains { $0.isASCII && $0.isLetter }
        return (hasDigit && hasLetter) || segment.count >= 20
    }

    /// The URL with `AccessCode` added when it has none.
    public static func addingAccessCode(_ code: String?, to url: URL) -> URL {
        guard let code, !code.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        var items = components.queryItems ?? []
        guard !items.contains(where: { $0.name.lowercased() == "accesscode" }) else { return url }
        items.append(URLQueryItem(name: "AccessCode", value: code))
        components.queryItems = items
        return components.url ?? url
    }

    /// Text with every secret removed: any `AccessCode` query value, and each given secret wherever
    /// it appears (an error message may quote a URL in its own way).
    public static func redact(_ text: String, secrets: [String] = []) -> String {
        var result = text
        for secret in secrets where secret.count >= 4 {
            result = result.replacing(secret, with: "REDACTED")
            let encoded = secret.percentEncoded(keeping: .urlQueryAllowed)
            if encoded != secret {
                result = result.replacing(encoded, with: "REDACTED")
            }
        }
        // AccessCode=<anything up to & or whitespace or quote>
        var output = ""
        var rest = Substring(result)
        while let range = rest.firstRange(ofASCIICaseInsensitive: "accesscode=") {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { "&# \t\n\"'<>".contains($0) } ?? rest.endIndex
            if rest.startIndex != end { output += "REDACTED" }
            rest = rest[end...]
        }
        return output + rest
    }
}
