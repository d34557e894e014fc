import Dispatch
import FoundationEssentials

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

    /// When reading must be done by: a file or pipe that sends nothing more in time fails with
    /// `FeedError.timedOut` instead of holding the refresh (and cron) forever.
    public struct Deadline: Sendable {
        public let seconds: Double
        private let end: UInt64

        public init(seconds: Double) {
            self.seconds = seconds
            end = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(seconds, 86_400)) * 1e9)
        }

        /// Seconds left: 0 when it has passed.
        public var remaining: TimeInterval {
            let now = DispatchTime.now().uptimeNanoseconds
            return now < end ? Double(end - now) / 1e9 : 0
        }

        /// Milliseconds left, for `poll`: 0 when it has passed.
        var remainingMilliseconds: Int32 {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < end else { return 0 }
            return Int32(min((end - now) / 1_000_000 + 1, UInt64(Int32.max)))
        }
    }

    /// Hands the input to `body` in order, a piece at a time. A file that cannot be opened or read
    /// throws `FeedError.unreadable`; one that sends nothing before the deadline (a FIFO without a
    /// writer, a terminal) throws `FeedError.timedOut`; errors from `body` pass through unchanged.
    func forEachPiece(deadline: Deadline? = nil, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        switch self {
        case .data(let data):
            try data.withUnsafeBytes { raw in try body(raw.bindMemory(to: UInt8.self)) }
        case .file(let path):
            // O_NONBLOCK: opening a FIFO must not wait for a writer; the reads below wait, each
            // under the deadline.
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            guard descriptor >= 0 else { throw FeedError.unreadable(path: path, reason: Self.reason(errno)) }
            defer { close(descriptor) }
            var piece = [UInt8](repeating: 0, count: Self.pieceSize)
            try piece.withUnsafeMutableBufferPointer { buffer in
                while true {
                    // A regular file is always ready; a pipe is waited for, under the deadline.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    let waited = poll(&ready, 1, deadline?.remainingMilliseconds ?? -1)
                    if waited < 0, errno == EINTR { continue }
                    if waited == 0, let deadline { throw FeedError.timedOut(path: path, seconds: deadline.seconds) }
                    let count = read(descriptor, buffer.baseAddress, buffer.count)
                    if count < 0 {
                        if errno == EINTR || errno == EAGAIN { continue }
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
