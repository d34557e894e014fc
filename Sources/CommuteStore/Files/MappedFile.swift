import Basics
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A whole file mapped read-only into memory: read without first being copied, and, in a forward
/// pass, handed back to the kernel page by page behind the reader — checking a 5 MB route cache
/// this way holds a few hundred kilobytes at a time.
///
/// Only for the store's own files, which are replaced by rename and never changed in place (a
/// mapped file that shrank under its reader would fault). Not thread-safe.
package final class MappedFile {
    let path: String
    /// The file's bytes; empty for an empty file.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// How much of the mapping has been handed back, in bytes (whole pages).
    private var released = 0
    private static let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4_096)

    /// Maps the file at `path`, or returns nil when there is no such file. What is not a regular
    /// file of at most `maximumSize` bytes is refused (see `RegularFile`).
    package init?(path: String, maximumSize: Int) throws(StoreError) {
        self.path = path
        guard let (descriptor, size) = try RegularFile.open(path, maximumSize: maximumSize) else { return nil }
        defer { close(descriptor) }
        guard size > 0 else {
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .io(path: path, reason: "cannot map: \(errnoText())")
        }
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// Hands back the pages wholly before `offset`, which the pass will not read again (if it
    /// does, they are read from the file anew).
    package func release(before offset: Int) {
        let end = offset / Self.pageSize * Self.pageSize
        guard let base = bytes.baseAddress, end > released else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
        released = end
    }

    /// The bytes as `Data`, without copying; valid only while this file is alive.
    func withData<T, Failure: Error>(_ body: (Data) throws(Failure) -> T) throws(Failure) -> T {
        guard let base = bytes.baseAddress else { return try body(Data()) }
        return try body(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
    }
}
