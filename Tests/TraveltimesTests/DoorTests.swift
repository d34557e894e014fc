import Foundation
import TestThreads
import Testing

/// The one door: a command sees the core's face — its features, the model, the sources', history's
/// and delivery's values — and no type of the store. The compiler keeps it: code that imports
/// the core and names a store type does not build.
@Suite(.ownThreads) struct DoorTests {
    /// The folder the tests were built into, whose `Modules/` holds every target's interface.
    static let products: URL = {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory
    }()

    /// Type-checks `source` as a file of the CLI would be: importing the modules the CLI may.
    static func typecheck(_ source: String) throws -> (status: Int32, errors: String) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let compiler = try #require(
            path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) },
            "swiftc is not on PATH: the tests run with the Swift toolchain")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("door-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Probe.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = [
            "-typecheck", "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path,
            "-Xcc", "-fmodule-map-file=\(products.appendingPathComponent("CZlib.build/module.modulemap").path)",
            "-Xcc", "-I\(Paths.root.appendingPathComponent("Sources/CZlib/include").path)",
            "-Xcc", "-fmodule-map-file=\(products.appendingPathComponent("CPrefetch.build/module.modulemap").path)",
            "-Xcc", "-I\(Paths.root.appendingPathComponent("Sources/CPrefetch/include").path)", file.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func codeThatImportsTheCoreCannotNameAStoreType() throws {
        // The face: what every command uses, and the store's error, which every feature may throw.
        let face = try Self.typecheck("""
            import CommuteCore
            let types: [Any.Type] = [Commute.self, Schedule.self, Route.self, Channel.self, FeedSource.self, StoreError.self, DisplayText.self]
            let timeout = Commute.defaultLockTimeout
            """)
        #expect(face.status == 0, "\(face.errors)")
        for name in ["Store", "StoreDirectory", "AtomicFile", "VersionedFile", "FileLock", "RouteCache", "DocumentProblem"] {
            let probe = try Self.typecheck("""
                import CommuteCore
                let type: Any.Type = \(name).self
                """)
            #expect(probe.status != 0 && probe.errors.contains("cannot find '\(name)' in scope"), "\(name): \(probe.errors)")
        }
    }

    /// Importing the store itself does not open the door either: its files, locks and the `Store`
    /// are its SPI (`@_spi(Store)`), seen only by a file that asks for them by that name — the
    /// layers below the CLI, the benchmarks and the tests.
    @Test func codeThatImportsTheStoreCannotNameItsFilesEither() throws {
        for name in ["Store", "StoreDirectory", "AtomicFile", "VersionedFile", "FileLock", "MappedFile", "RegularFile"] {
            let probe = try Self.typecheck("""
                import CommuteCore
                import CommuteStore
                let type: Any.Type = \(name).self
                """)
            #expect(probe.status != 0 && probe.errors.contains("'\(name)'"), "\(name): \(probe.errors)")
        }
        // Nor reach a store through a feature: the commute's store is the core's own.
        let reach = try Self.typecheck("""
            import CommuteCore
            import CommuteStore
            func peek(_ commute: Commute) throws { _ = try commute.store.routes() }
            """)
        #expect(reach.status != 0, "\(reach.errors)")
        // The values a store file holds stay plain values; a file that asks for the SPI sees the rest.
        let spi = try Self.typecheck("""
            @_spi(Store) import CommuteStore
            let types: [Any.Type] = [Store.self, AtomicFile.self, RouteCache.self, StoreError.self]
            """)
        #expect(spi.status == 0, "\(spi.errors)")
    }

    @Test func theCLIImportsOnlyTheCore() throws {
        let system: Set<String> = ["FoundationEssentials", "Foundation", "Dispatch", "Glibc", "Synchronization"]
        let folder = Paths.root.appendingPathComponent("Sources/TraveltimesCLI")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") && line.hasPrefix("@") {
                #expect(!line.contains("@_spi"), "Sources/TraveltimesCLI/\(file) asks for the store's SPI: \(line)")
                let module = String(line.split(separator: " ").last ?? "")
                #expect(module == "CommuteCore" || system.contains(module), "Sources/TraveltimesCLI/\(file) imports \(module)")
            }
        }
    }
}
