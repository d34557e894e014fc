/// Where the store lives: `$TRAVELTIMES_HOME`, else `$XDG_DATA_HOME/traveltimes`, else
/// `~/.local/share/traveltimes`.
public enum StoreLocation {
    public static func directory(environment: [String: String]) throws(StoreError) -> String {
        if let home = environment["TRAVELTIMES_HOME"], !home.isEmpty { return home }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/traveltimes" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/traveltimes" }
        throw .noLocation("no store directory: set TRAVELTIMES_HOME (or HOME)")
    }
}
