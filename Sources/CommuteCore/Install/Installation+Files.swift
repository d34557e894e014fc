import Basics
import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

extension Installation.SystemdPlan {
    /// Writes the units that differ into `directory` (made if missing), each atomically with mode
    /// 0644, calling `wrote` with each path once it is in place.
    public func write(wrote: (String) -> Void) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(path: directory, reason: "cannot create it: \(systemReason(error))")
        }
        for change in changes {
            try AtomicFile.write(Array(change.text.utf8), to: change.path, mode: 0o644)
            wrote(change.path)
        }
    }
}

extension Installation {
    /// Removes the units at `paths` (those `installedUnits(in:)` found), calling `removed` with
    /// each once it is gone; stops at the first that cannot be removed.
    public static func remove(units paths: [String], removed: (String) -> Void) throws(StoreError) {
        for path in paths {
            guard unlink(path) == 0 else { throw StoreError.io(path: path, reason: "cannot remove it: \(String(cString: strerror(errno)))") }
            removed(path)
        }
    }
}
