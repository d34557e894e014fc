import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Which version of a file is at a path, without reading it: device, inode, size and modification
/// time in nanoseconds. Store files are only ever replaced by rename, so every save gives a new
/// inode, and the four together tell one saved version from the next.
package enum FileStamp {
    /// `"2049:1311:840:1732752000.123456789"`; nil when nothing is at the path (or it cannot be
    /// examined: a plan then matches only an absent file, and is made again).
    package static func of(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }
}
