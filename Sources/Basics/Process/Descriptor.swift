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
