import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whole-file replacement that a crash cannot tear: write a temporary file in the same directory,
/// fsync it, rename it over the target, fsync the directory. A reader, or a process killed at any
/// instant, sees either the whole old file or the whole new one.
public enum AtomicFile {
    /// Replaces `path` with `data`, mode 0600. The caller holds the file's lock, so any temporary
    /// file of the same target left by a killed writer is known to be garbage and is removed.
    public static func write(_ data: some ContiguousBytes, to path: String) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporaryPrefix = ".\(name).tmp-"
        removeLeftovers(in: directory, prefix: temporaryPrefix)

        let temporary = "\(directory)/\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, reason: "cannot create a temporary file: \(errnoText())") }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == nil {
                let written = Glibc.write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0 {
                    if errno != EINTR { failure = "cannot write: \(errnoText())" }
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fchmod(descriptor, 0o600) != 0 { failure = "cannot set mode 0600: \(errnoText())" }
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot fsync: \(errnoText())" }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = "cannot replace the file: \(errnoText())" }
        if let failure {
            unlink(temporary)
            throw .io(path: path, reason: failure)
        }
        syncDirectory(directory)
    }

    /// Makes a rename durable: the directory entry itself must reach the disk.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func removeLeftovers(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink("\(directory)/\(name)")
        }
    }
}
