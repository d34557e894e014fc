import FoundationEssentials

/// Where the store lives: `$TRAVELTIMES_HOME`, else `$XDG_DATA_HOME/traveltimes`, else
/// `~/.local/share/traveltimes`.
/// Always an absolute path: a relative `TRAVELTIMES_HOME` is taken from the working directory,
/// once, here — so every command, the installers and `doctor` name the same directory.
public enum StoreLocation {
    public static func directory(environment: [String: String]) throws(StoreError) -> String {
        if let home = environment["TRAVELTIMES_HOME"], !home.isEmpty { return absolute(home) }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return absolute(data + "/traveltimes") }
        if let home = environment["HOME"], !home.isEmpty { return absolute(home + "/.local/share/traveltimes") }
        throw .noLocation("no store directory: set TRAVELTIMES_HOME (or HOME)")
    }

    /// `path` from the working directory when relative, without `.` parts or a trailing slash.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") where part != "." {
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
