import Basics
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Whole-file replacement that a crash cannot tear: write a temporary file in the same directory,
/// fsync it, rename it over the target, fsync the directory. A reader, or a process killed at any
/// instant, sees either the whole old file or the whole new one.
@_spi(Store)
public enum AtomicFile {
    /// Replaces `path` with `data`, mode 0600 (or `mode`). A temporary file of the same target left
    /// by a writer that is gone (killed mid-write) is garbage and is removed; one a live process is
    /// writing is its own (a file written outside any lock: an export, a timetable's index).
    public static func write(_ data: some ContiguousBytes, to path: String, mode: mode_t = 0o600) throws(StoreError) {
        do {
            try write(to: path, mode: mode) { file in try file.write(data) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .io(path: path, reason: "\(error)")
        }
    }

    /// Replaces `path` with what `body` writes, a piece at a time: a large file is written without
    /// ever being whole in memory. If `body` throws, the temporary file is removed, `path` is left
    /// as it was, and the error passes through unchanged.
    public static func write<T>(to path: String, mode: mode_t = 0o600, _ body: (Output) throws -> T) throws -> T {
        let directory = path.pathDirectory
        let name = path.pathBaseName
        let temporaryPrefix = ".\(name).tmp-"
        removeLeftovers(in: directory, prefix: temporaryPrefix)

        let temporary = "\(directory)/\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.io(path: path, reason: "cannot create a temporary file: \(errnoText())") }
        let output = Output(path: path, descriptor: descriptor)
        let result: T
        do {
            result = try body(output)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        var failure: String?
        if fchmod(descriptor, mode) != 0 { failure = "cannot set mode \(String(mode, radix: 8)): \(errnoText())" }
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot fsync: \(errnoText())" }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = "cannot replace the file: \(errnoText())" }
        if let failure {
            unlink(temporary)
            throw StoreError.io(path: path, reason: failure)
        }
        syncDirectory(directory)
        return result
    }

    /// The temporary file being written, in `write(to:_:)`.
    public struct Output {
        let path: String
        fileprivate let descriptor: Int32

        /// Appends bytes to the file.
        public func write(_ data: some ContiguousBytes) throws(StoreError) {
            if let code = data.withUnsafeBytes({ writeAll(descriptor, $0) }) {
                throw .io(path: path, reason: "cannot write: \(String(cString: strerror(code)))")
            }
        }
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
            // `PREFIX<pid>-<random>`: a writer still running keeps its file.
            if let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0,
                kill(pid, 0) == 0 || errno == EPERM
            {
                continue
            }
            unlink("\(directory)/\(name)")
        }
    }
}
