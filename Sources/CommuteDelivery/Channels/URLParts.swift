import FoundationEssentials

/// The parts of `scheme://user:pass@host:port/a/b?x=y`, each percent-decoded, read the way
/// Apprise reads them: forgiving of ports that are not numbers (a Telegram token), and taking a
/// `#` as part of the path or value it is in (a Matrix room, a Slack channel).
struct URLParts {
    var user: String?
    var password: String?
    var host: String
    var port: String?
    /// `user:pass@host:port` as written.
    var rawAuthority: String
    var path: [String]
    var query: [String: String]
    var rawQuery: String?

    var hostAndPort: String { port.map { "\(host):\($0)" } ?? host }

    init?(_ text: String) {
        guard let separator = text.firstRange(of: "://") else { return nil }
        var rest = Substring(text[separator.upperBound...])
        var pairs: [String: String] = [:]
        // As Apprise reads it, a `#` is never a fragment: before the query it is part of the
        // path (`/#room1/#room2?x=y`: two Matrix rooms), in the query part of a value
        // (`?to=#commute`).
        if let question = rest.firstIndex(of: "?") {
            let query = String(rest[rest.index(after: question)...])
            rawQuery = query
            for pair in query.split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1).map { String($0).replacing("+", with: " ").percentDecoded ?? String($0) }
                if let name = halves.first { pairs[name.lowercased()] = halves.count > 1 ? halves[1] : "" }
            }
            rest = rest[..<question]
        }
        query = pairs
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        rawAuthority = String(authority.split(separator: "@").last ?? "")
        path = rest[slash...].split(separator: "/").map { String($0).percentDecoded ?? String($0) }
        var hostPart = authority
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            hostPart = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = String(credentials[..<colon]).percentDecoded
                password = String(credentials[credentials.index(after: colon)...]).percentDecoded
            } else {
                user = String(credentials).percentDecoded
            }
        }
        if hostPart.hasPrefix("["), let close = hostPart.firstIndex(of: "]") {
            host = String(hostPart[...close])
            let after = hostPart[hostPart.index(after: close)...]
            port = after.hasPrefix(":") ? String(after.dropFirst()) : nil
        } else if let colon = hostPart.lastIndex(of: ":") {
            host = String(hostPart[..<colon])
            port = String(hostPart[hostPart.index(after: colon)...])
        } else {
            host = String(hostPart)
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
    }

    /// Whether the port, if any, is a port number: every scheme but Telegram's needs it to be.
    var hasValidPort: Bool { port.map { Int($0).map { (1...65_535).contains($0) } ?? false } ?? true }
}
