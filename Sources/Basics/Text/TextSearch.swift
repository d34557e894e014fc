/// Case-insensitive substring search over UTF-8 bytes, for route search. ASCII letters fold to
/// lower case; other bytes compare as they are. Used on the route cache's bytes in place, so
/// routes that do not match are never built.
public struct TextSearch: Sendable {
    /// The needle, lower-cased.
    public let needle: [UInt8]

    /// Nil when the text is not ASCII: the caller then matches built strings with Foundation.
    public init?(_ text: String) {
        let bytes = Array(text.lowercased().utf8)
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        needle = bytes
    }

    public func matches(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) {
            var offset = 0
            while offset < needle.count, Self.fold(haystack[start + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }

    public func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches($0) }
    }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
