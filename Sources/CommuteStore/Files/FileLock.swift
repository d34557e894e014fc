import Basics
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// An advisory `flock(2)` lock on a lock file, with a bounded wait.
///
/// Each acquisition opens the lock file afresh, and `flock` treats separate open file
/// descriptions independently — so the lock excludes other threads of this process exactly as it
/// excludes other processes. The kernel drops it when its holder dies, so a killed process never
/// leaves a stale lock behind.
@_spi(Store)
public struct FileLock: Sendable {
    public enum Mode: Sendable {
        /// Readers that must see a domain unchanged while they work; many may hold it at once.
        case shared
        /// The read-modify-write of a domain; one holder at a time.
        case exclusive
    }

    /// The domain's name, for messages: `schedules`.
    public let name: String
    public let path: String
    /// How long to wait before giving up.
    public let timeout: TimeInterval

    public init(name: String, path: String, timeout: TimeInterval) {
        self.name = name
        self.path = path
        self.timeout = timeout
    }

    /// Runs `body` while holding the lock; throws `StoreError.lockTimeout` if it cannot be had in time.
    public func withLock<T>(_ mode: Mode = .exclusive, _ body: () throws -> T) throws -> T {
        let descriptor = try acquire(mode)
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try body()
    }

    private func acquire(_ mode: Mode) throws(StoreError) -> Int32 {
        // O_NONBLOCK: whatever stands at the path (a FIFO) must not hold the open up.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, reason: "cannot open lock file: \(errnoText())") }
        let operation = (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        var pause: UInt32 = 1_000  // microseconds; doubles to 50 ms
        while true {
            if flock(descriptor, operation) == 0 { return descriptor }
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(descriptor)
                throw .io(path: path, reason: "cannot lock: \(String(cString: strerror(failure)))")
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                close(descriptor)
                throw .lockTimeout(lock: name, path: path, seconds: timeout)
            }
            usleep(UInt32(min(UInt64(pause), (deadline - now) / 1_000 + 1)))
            pause = min(pause * 2, 50_000)
        }
    }
}


