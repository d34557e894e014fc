import Basics
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Opens a store file without trusting what is at its path.
///
/// Whatever stands there — a FIFO (which would block a plain open forever), a device, a
/// directory, a symbolic link that loops, a file of gigabytes — is refused with the path and the
/// reason, as data the store cannot read, before a byte of it is read.
@_spi(Store)
public enum RegularFile {
    /// The most a store file other than the route cache can hold: the largest a real store writes
    /// (ten thousand schedules, a month of ledger) is a few megabytes.
    public static let defaultMaximumSize = 64 << 20
    /// The route cache: a feed is at most 50,000 routes of about 500 bytes.
    public static let routeCacheMaximumSize = 256 << 20

    /// The open file and its size, or nil when nothing is at `path`. The caller closes it.
    package static func open(_ path: String, maximumSize: Int) throws(StoreError) -> (descriptor: Int32, size: Int)? {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .unreadable(path: path, reason: "it is a symbolic link that loops; no file can be read through it")
            default: throw .io(path: path, reason: "cannot read: \(errnoText())")
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = errnoText()
            close(descriptor)
            throw .io(path: path, reason: "cannot read: \(reason)")
        }
        if let kind = kind(of: status.st_mode) {
            close(descriptor)
            throw .unreadable(path: path, reason: "it is \(kind), not a store file")
        }
        let size = Int(status.st_size)
        guard size <= maximumSize else {
            close(descriptor)
            throw .unreadable(
                path: path,
                reason: "it is \(byteCount(size)), far larger than a store file can be (at most \(byteCount(maximumSize)))")
        }
        return (descriptor, size)
    }

    /// The whole file, or nil when nothing is at `path`; the checks of `open` first.
    package static func read(_ path: String, maximumSize: Int) throws(StoreError) -> Data? {
        guard let (descriptor, size) = try open(path, maximumSize: maximumSize) else { return nil }
        defer { close(descriptor) }
        // One byte more than the size, to notice a file that grew past the limit while read.
        // Read straight into the Data returned: a copy would double a large file's peak.
        var bytes = Data(count: min(size, maximumSize) + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress?.advanced(by: count), buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: "cannot read: \(errnoText())")
            }
            if read == 0 { break }
            count += read
        }
        guard count <= maximumSize else {
            throw .unreadable(path: path, reason: "it grew past \(byteCount(maximumSize)) while being read; it was not used")
        }
        bytes.count = count
        return bytes
    }

    /// What a non-regular file is, for the message; nil for a regular file.
    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }

    /// `2.0 GiB`, `64 MiB`, `512 bytes`.
    static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1 << 30 { return String(cFormat: "%.1f GiB", Double(bytes) / Double(1 << 30)) }
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
