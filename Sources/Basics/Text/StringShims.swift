/// The string conveniences of Foundation the product uses, written over the standard library:
/// FoundationEssentials has none of them, and the whole of Foundation would link ICU.
/// The string conveniences of Foundation the product uses, written over the standard library under
/// names of their own: FoundationEssentials has none of them, the whole of Foundation would link
/// ICU, and tests (which import Foundation) must never find two of one name.
extension StringProtocol {
    /// The text without white space (Unicode's, line breaks included) at either end.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }

    /// The text cut or padded with spaces to `width` characters.
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
    }

    /// The first range of `target`, ASCII letters matching in either case.
    public func firstRange(ofASCIICaseInsensitive target: String) -> Range<Index>? {
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let needle = target.utf8.map(lower)
        guard !needle.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            var cursor = start
            var matched = 0
            while matched < needle.count, cursor < endIndex {
                let bytes = self[cursor].utf8.map(lower)
                guard matched + bytes.count <= needle.count, bytes.elementsEqual(needle[matched..<matched + bytes.count]) else { break }
                matched += bytes.count
                cursor = index(after: cursor)
            }
            if matched == needle.count { return start..<cursor }
            start = index(after: start)
        }
        return nil
    }

    /// The text with every character outside `allowed` (and every byte past ASCII) written as
    /// `%XX`, its UTF-8 bytes in upper-case hex.
    public func percentEncoded(keeping allowed: ScalarSet) -> String {
        var result = ""
        for byte in utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, allowed.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// The text with each `%XX` replaced by its byte; nil when a `%` is not followed by two hex
    /// digits, or the bytes are not UTF-8.
    public var percentDecoded: String? {
        var bytes: [UInt8] = []
        var input = Array(utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard input.count >= 2, let high = Self.hex(input[input.startIndex]), let low = Self.hex(input[input.startIndex + 1]) else { return nil }
            bytes.append(high << 4 | low)
            input = input.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    /// C's `printf` formats (`%02d`, `%.1f`, `%016llx`, `%g`), through `vsnprintf`; no `%@`.
    public init(cFormat format: String, _ arguments: any CVarArg...) {
        let count = withVaList(arguments) { vsnprintf(nil, 0, format, $0) }
        guard count >= 0 else {
            self = format
            return
        }
        var buffer = [CChar](repeating: 0, count: Int(count) + 1)
        _ = withVaList(arguments) { list in buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, list) } }
        self = String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A set of Unicode scalars, for percent-encoding: the few of Foundation's `CharacterSet` the
/// product uses.
public struct ScalarSet: Sendable {
    private var scalars: Set<Unicode.Scalar>
    private var test: (@Sendable (Unicode.Scalar) -> Bool)?

    public init(charactersIn text: String) { scalars = Set(text.unicodeScalars) }

    private init(_ test: @escaping @Sendable (Unicode.Scalar) -> Bool) {
        scalars = []
        self.test = test
    }

    public func contains(_ scalar: Unicode.Scalar) -> Bool { scalars.contains(scalar) || (test?(scalar) ?? false) }

    public mutating func insert(charactersIn text: String) { scalars.formUnion(text.unicodeScalars) }

    /// Letters, marks and digits.
    public static let alphanumerics = ScalarSet { scalar in
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default: false
        }
    }
    /// What a URL's query may hold as it is.
    public static let urlQueryAllowed = ScalarSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?")
}

/// The last part of a path, and the path without it, as `NSString`'s `lastPathComponent` and
/// `deletingLastPathComponent` had them.
extension String {
    public var pathBaseName: String {
        let trimmed = hasSuffix("/") && count > 1 ? String(dropLast()) : self
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }

    public var pathDirectory: String {
        let trimmed = hasSuffix("/") && count > 1 ? String(dropLast()) : self
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}

/// Waits the calling thread for `seconds` (what `Thread.sleep` did).
public func sleepFor(_ seconds: Double) {
    guard seconds > 0 else { return }
    let whole = min(seconds, 1e9)
    var time = timespec(tv_sec: Int(whole), tv_nsec: Int((whole - whole.rounded(.down)) * 1e9))
    var left = timespec()
    while nanosleep(&time, &left) != 0, errno == EINTR { time = left }
}

/// A JSON `null`, as `JSONReader.readAny` gives it.
public struct JSONNull: Sendable, Equatable {
    public init() {}
}

/// The system's words for a file-system error (`No such file or directory`), as Foundation's
/// `localizedDescription` gave them.
public func systemReason(_ error: any Error) -> String {
    var current: any Error = error
    for _ in 0..<4 {
        if let posix = current as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        guard let cocoa = current as? CocoaError, let underlying = cocoa.underlying else { break }
        current = underlying
    }
    if let cocoa = error as? CocoaError {
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "No such file or directory"
        case .fileWriteNoPermission, .fileReadNoPermission: return "Permission denied"
        case .fileWriteOutOfSpace: return "No space left on device"
        default: return "file error \(cocoa.code.rawValue)"
        }
    }
    return String(describing: error)
}

/// Runs `body` on a thread of its own, detached (what `Thread { }.start()` did).
public func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { context in
        guard let context else { return nil }
        let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
        box.body()
        return nil
    }, box)
    if started == 0 {
        pthread_detach(thread)
    } else {
        // No thread to be had: run it here rather than never.
        Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
    }
}
