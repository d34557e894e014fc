/// What `--help` and the man page both list, written once.
enum Reference {
    /// The environment variables the program reads.
    static let environment: [(name: String, meaning: String)] = [
        ("TRAVELTIMES_HOME", "Store directory (else $XDG_DATA_HOME/traveltimes, else ~/.local/share/traveltimes)"),
        ("TRAVELTIMES_TZ", "The schedules' zone for this command, over the saved one (config set timezone)"),
        ("TZ", "Used only before a zone is saved: the first schedule saves it"),
        ("TRAVELTIMES_SOURCE", "Feed for refresh when --source is not given (else `config set source`)"),
        ("WSDOT_ACCESS_CODE", "WSDOT access code (else `config set access-code`); never printed"),
        ("TRAVELTIMES_CAP", "Most alerts pending at once (default 64)"),
        ("TRAVELTIMES_LOCK_TIMEOUT", "Seconds to wait for a store lock (default 10)"),
        ("TRAVELTIMES_FETCH_HELPER", "Path of traveltimes-fetch (default: beside traveltimes)"),
        ("XDG_CONFIG_HOME", "Units of install systemd go to $XDG_CONFIG_HOME/systemd/user (else ~/.config/systemd/user)"),
        ("XDG_DATA_HOME", "The default store is $XDG_DATA_HOME/traveltimes when TRAVELTIMES_HOME is unset"),
        ("HOME", "Base of the default store and unit directory when the XDG variables are unset"),
        ("TOMTOM_API_KEY", "TomTom key (else `config set tomtom-key`); never printed"),
        ("HERE_API_KEY", "HERE key (else `config set here-key`); never printed"),
        ("GOOGLE_MAPS_API_KEY", "Google Routes API key (else `config set google-key`); never printed"),
        ("TRAVELTIMES_TOMTOM_URL", "Replaces https://api.tomtom.com (scheme and host: a proxy, a test server)"),
        ("TRAVELTIMES_HERE_URL", "Replaces https://router.hereapi.com"),
        ("TRAVELTIMES_GOOGLE_URL", "Replaces https://routes.googleapis.com"),
    ]

    /// The store's files, in the store directory.
    static let files: [(name: String, meaning: String)] = [
        ("routes.json", "the route cache: travel times, and the validators its source sent"),
        ("favorites.json", "favourite route IDs, in order, and groups"),
        ("schedules.json", "the schedules"),
        ("pending.json", "the planned alerts and their previews; deferred requests"),
        ("delivered.json", "the ledger: every delivery, suppression, miss and failure, for 30 days"),
        ("config.json", "settings, notifiers and delay watches; the only file a secret is written to (mode 0600)"),
        ("refresh.json", "the last refresh attempts"),
    ]

    /// The exit statuses, in order.
    static let exitStatuses: [(code: ExitCode, meaning: String)] = [
        (.success, "success"),
        (.failure, "anything else: no route data yet, a declined confirmation, a failed delivery, a problem doctor found, a unit or crontab block traveltimes did not write (without --force)"),
        (.usage, "bad usage: an unknown command or option, a bad value"),
        (.dataError, "bad data: a corrupt or impossible store file, a malformed feed"),
        (.unavailable, "unavailable: the feed or a server cannot be had, traveltimes-fetch is missing, no crontab command, crontab or systemctl failed, or a routing provider rejected its key or a request"),
        (.temporaryFailure, "try again later: a deadline passed or a store lock was held too long"),
    ]
}
