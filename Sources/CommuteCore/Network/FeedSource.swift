import Foundation

/// Where a refresh reads the feed: an `http(s)://` URL or a local file.
public enum FeedSource: Sendable, Equatable {
    case url(URL)
    case file(String)

    /// Reads the text a user gave (`--source`, `TRAVELTIMES_SOURCE`, the configuration).
    public init(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://"), let url = URL(string: text) {
            self = .url(url)
        } else {
            self = .file(text)
        }
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
            result = result.replacingOccurrences(of: secret, with: "REDACTED")
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed), encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: "REDACTED")
            }
        }
        // AccessCode=<anything up to & or whitespace or quote>
        var output = ""
        var rest = Substring(result)
        while let range = rest.range(of: "accesscode=", options: .caseInsensitive) {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { "&# \t\n\"'<>".contains($0) } ?? rest.endIndex
            if rest.startIndex != end { output += "REDACTED" }
            rest = rest[end...]
        }
        return output + rest
    }
}
