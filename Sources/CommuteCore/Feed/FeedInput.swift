import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a feed's bytes are: a file, read a piece at a time, or a body already in memory (what
/// the fetch helper returned).
public enum FeedInput: Sendable {
    case file(path: String)
    case data(Data)

    /// How much of a file is read at a time: the whole window a feed file is read through.
    static let pieceSize = 64 * 1_024

    /// Hands the input to `body` in order, a piece at a time. A file that cannot be opened or read
    /// throws `FeedError.unreadable`; errors from `body` pass through unchanged.
    func forEachPiece(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        switch self {
        case .data(let data):
            try data.withUnsafeBytes { raw in try body(raw.bindMemory(to: UInt8.self)) }
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FeedError.unreadable(path: path, reason: Self.reason(errno)) }
            defer { close(descriptor) }
            var piece = [UInt8](repeating: 0, count: Self.pieceSize)
            try piece.withUnsafeMutableBufferPointer { buffer in
                while true {
                    let count = read(descriptor, buffer.baseAddress, buffer.count)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw FeedError.unreadable(path: path, reason: Self.reason(errno))
                    }
                    if count == 0 { return }
                    try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                }
            }
        }
    }

    private static func reason(_ code: Int32) -> String {
        code == ENOENT ? "no such file" : String(cString: strerror(code)).lowercased()
    }
}
