#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to a file descriptor, resuming after partial writes and interruptions.
/// Returns nil, or the `errno` of the write that failed.
@discardableResult
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
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
