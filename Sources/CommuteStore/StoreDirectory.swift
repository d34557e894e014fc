import FoundationEssentials

/// Where the store lives, always as an absolute path: `$TRAVELTIMES_HOME`, else
/// `$XDG_DATA_HOME/traveltimes`, else `~/.local/share/traveltimes`. A relative
/// `TRAVELTIMES_HOME` is taken from the working directory, once, here — so every command, the
/// installers and `doctor` name the same directory.
@_spi(Store)
public struct StoreDirectory: Sendable, Hashable, CustomStringConvertible {
    /// The absolute path, without `.` parts or a trailing slash.
    public let path: String

    /// `path`, taken from the working directory when relative.
    public init(_ path: String) {
        let full = path.first == "/" ? path : FileManager.default.currentDirectoryPath + "/" + path
        self.path = "/" + full.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// The store a command uses, from its environment.
    public init(environment: [String: String]) throws(StoreError) {
        if let home = environment.nonEmpty(.home) {
            self.init(home)
        } else if let data = environment[.dataHome], data.first == "/" {
            self.init(data + "/traveltimes")
        } else if let home = environment.nonEmpty(.userHome) {
            self.init(home + "/.local/share/traveltimes")
        } else {
            throw .noLocation("no store directory: set TRAVELTIMES_HOME (or HOME)")
        }
    }

    public var description: String { path }

    /// A file in it.
    public func file(_ name: String) -> String { path + "/" + name }
}
