#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to a file descriptor, resuming after partial writes and interruptions.
/// Returns nil, or the `errno` of the write that failed.
@discardableResult
package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
        if written < 0 {
            guard errno == EINTR else { return errno }
        } else {
            offset += written
        }
    }
    return nil
}

/// Writes all of `bytes` to a pipe whose reader may be gone (a child that exits without reading
/// its input): that is `EPIPE`, returned, never a SIGPIPE that would end this process. The signal
/// such a write raises is blocked on this thread, taken, and the thread's mask restored.
@discardableResult
package func writeAllToChild(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    // One already pending (from elsewhere) is left for whoever it was meant for.
    var pending = sigset_t()
    sigpending(&pending)
    let wasPending = sigismember(&pending, SIGPIPE) == 1
    let failure = writeAll(descriptor, bytes)
    if failure == EPIPE, !wasPending {
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&pipeSignal, nil, &now)
    }
    return failure
}

/// Writes `text` to standard output, whole.
public func standardOutput(_ text: String) {
    var text = text
    _ = text.withUTF8 { writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
}

/// Writes `text` to standard error, whole.
public func standardError(_ text: String) {
    var text = text
    _ = text.withUTF8 { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
}

/// Standard input read to its end, or to `limit` bytes (the rest left unread).
public func readStandardInput(limit: Int) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while data.count < limit {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, min($0.count, limit - data.count)) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        data.append(contentsOf: buffer[..<count])
    }
    return data
}

/// The system's words for `errno` as it is now.
public func errnoText() -> String { String(cString: strerror(errno)) }
