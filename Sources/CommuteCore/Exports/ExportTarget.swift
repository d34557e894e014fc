import Basics
import CommuteStore
import FoundationEssentials

/// A place the commute is published to (`export add`): Home Assistant's REST API, an MQTT broker
/// (Home Assistant discovery), an iCalendar file, a Prometheus textfile. Kept in the
/// configuration, mode 0600: the token and the broker's password live there and nowhere else.
public struct ExportTarget: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case homeassistant, mqtt, ics, prometheus

        /// Whether it writes a file (rather than send over the network).
        public var isFile: Bool { self == .ics || self == .prometheus }
    }

    /// `homeassistant`, `mqtt`, `ics`, `prometheus`; a second of a kind `ics-2`.
    public var id: String
    public var kind: Kind
    /// Home Assistant's base URL, the broker's `mqtt://` URL, or the file's full path.
    public var location: String
    /// Home Assistant's long-lived access token.
    public var token: String?
    public var createdAt: Date

    public init(id: String, kind: Kind, location: String, token: String? = nil, createdAt: Date) {
        self.id = id
        self.kind = kind
        self.location = location
        self.token = token
        self.createdAt = createdAt
    }

    /// The most exports.
    public static let largestCount = 20

    /// Where it goes, as it may be shown: a URL's scheme, host and port (and an MQTT prefix),
    /// never a user, password or token; a file by its path.
    public var shownLocation: String { kind.service.shownLocation(of: self) }

    func validate(field: String) throws(DocumentProblem) {
        try DocumentProblem.check(Self.isValidID(id), "\(field).id is not an export ID")
        try DocumentProblem.check(location.utf8.count <= 4_096 && !location.isEmpty, "\(field).location is empty or too long")
        try kind.service.validate(self, field: field)
    }

    /// `kind` or `kind-N`.
    public static func isValidID(_ id: String) -> Bool {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        guard let kind = parts.first, Kind(rawValue: String(kind)) != nil else { return false }
        return parts.count == 1 || (parts.count == 2 && Int(parts[1]).map { (2...99).contains($0) } == true)
    }

    /// A token: one line of printable ASCII, at most 4 KiB.
    public static func isValidToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 4_096 && token.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }

    /// Home Assistant's base URL: http(s), a host, no query, user or fragment; `/` at the end
    /// dropped.
    public static func homeAssistantURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.user == nil, url.fragment == nil
        else { return nil }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return URL(string: trimmed)
    }
}

/// An `mqtt://[user[:password]@]HOST[:PORT][/PREFIX]` URL, read.
public struct MQTTBroker: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    /// The topic prefix for states and attributes (default `traveltimes`).
    public var prefix: String

    public static let defaultPort = 1883
    public static let defaultPrefix = "traveltimes"

    public init?(_ text: String) {
        guard text.lowercased().hasPrefix("mqtt://"), text.utf8.count <= 4_096 else { return nil }
        var rest = Substring(text.dropFirst("mqtt://".count))
        var path = ""
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[rest.index(after: slash)...])
            rest = rest[..<slash]
        }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = Self.decoded(credentials[..<colon])
                password = Self.decoded(credentials[credentials.index(after: colon)...])
            } else {
                user = Self.decoded(credentials)
            }
            guard user?.isEmpty == false else { return nil }
        }
        var hostPart = rest
        var portNumber = Self.defaultPort
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { return nil }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65_535).contains(value) else { return nil }
                portNumber = value
            } else if !after.isEmpty {
                return nil
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            guard let value = Int(hostPart[hostPart.index(after: colon)...]), (1...65_535).contains(value) else { return nil }
            portNumber = value
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, hostPart.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:".unicodeScalars.contains($0)) })
        else { return nil }
        while path.hasSuffix("/") { path.removeLast() }
        // A prefix is topic levels: no wildcards, no empty level, nothing invisible.
        if !path.isEmpty {
            guard path.utf8.count <= 200, !path.contains("+"), !path.contains("#"), !path.split(separator: "/", omittingEmptySubsequences: false).contains(""),
                DisplayText.line(path) == path, !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == " " })
            else { return nil }
        }
        host = String(hostPart)
        port = portNumber
        prefix = path.isEmpty ? Self.defaultPrefix : path
    }

    private static func decoded(_ text: Substring) -> String? {
        String(text).percentDecoded.flatMap { $0.utf8.count <= 1_024 ? $0 : nil }
    }
}
