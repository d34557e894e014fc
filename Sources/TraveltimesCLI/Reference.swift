import CommuteCore

/// What `--help` and the man page both list, written once; the README links to the man page
/// rather than copying any of it.
enum Reference {
    /// The environment variables the program reads.
    static var environment: [(name: String, meaning: String)] { EnvironmentVariable.documented.map { ($0.name, $0.meaning) } }

    /// The store's files, in the store directory.
    static let files: [(name: String, meaning: String)] = [
        ("routes.json", "the route cache: travel times, and the validators its source sent"),
        ("favorites.json", "favorite route IDs, in order, and groups"),
        ("schedules.json", "the schedules"),
        ("pending.json", "the planned alerts and their previews; deferred requests"),
        ("delivered.json", "the ledger: every delivery, suppression, miss and failure, for 30 days"),
        ("config.json", "settings, notifiers and delay watches; the only file a secret is written to (mode 0600)"),
        ("refresh.json", "the last refresh attempts, and each provider's failures and requests today"),
        ("health.json", "the health problem tick has found and not yet seen mended (old data, failing refreshes)"),
        ("alerts.json", "the notifications still showing that a channel can change or clear, with their handles"),
        ("history/ROUTE.tth", "every travel time measured for a route in use, 12 bytes each, kept history-days (default 400)"),
        ("transit.json", "the transit routes with their coming departures, and each transit feed's state (when fetched, validators, problems)"),
        ("transit/", "each transit feed's timetable zip and last realtime feeds (NAME.zip, NAME.realtime.pb, NAME.alerts.pb), and each transit route's timetable (ROUTE.timetable.json)"),
        ("places.json", "the places saved by name (place add), and the searches they were found by"),
        ("calendars.json", "what each calendar's last reading found, and the departures and days off planned from it"),
        ("calendar-NAME.ics", "each calendar's last good copy (one that cannot be read never replaces it)"),
        ("exports.json", "each export's last attempt and what it last sent (a digest per sensor or message)"),
        ("PROVIDER.pace", "when a public service (Transitous, Nominatim, OSRM, Valhalla) was last asked, shared by every process"),
        (".DOMAIN.lock", "the locks every command that writes takes (routes, pending, history…)"),
    ]

    /// An exit status: `label` is its name in `--help`'s one line, `meaning` its causes.
    struct ExitStatus {
        var code: ExitCode
        var label: String
        var meaning: String
    }

    /// The exit statuses, in order.
    static let exitStatuses: [ExitStatus] = [
        ExitStatus(code: .success, label: "ok", meaning: "success"),
        ExitStatus(
            code: .failure, label: "other failure",
            meaning: "anything else: no route data yet, a declined confirmation, a failed delivery, route add found no route, "
                + "a problem doctor found, a unit or crontab block traveltimes did not write (without --force)"),
        ExitStatus(
            code: .usage, label: "bad usage",
            meaning: "bad usage: an unknown command or option, a bad value (also in TRAVELTIMES_NOW, TRAVELTIMES_CAP or "
                + "TRAVELTIMES_TZ), a missing --yes without a terminal, no feed source, a routing provider with no key, "
                + "an exec notifier whose program cannot run (without --force), a store or binary path install cannot give "
                + "systemd or cron"),
        ExitStatus(
            code: .dataError, label: "bad data",
            meaning: "bad data: a corrupt, unknown-version, impossible-valued or non-regular store file; a malformed, truncated or empty feed"),
        ExitStatus(
            code: .unavailable, label: "unavailable",
            meaning: "unavailable: the feed or a server cannot be had (an HTTP error, an HTML page, a body over 32 MiB), "
                + "the fetch helper is missing, no crontab command, crontab or systemctl failed, or a routing provider "
                + "rejected its key or a request"),
        ExitStatus(
            code: .temporaryFailure, label: "try again later",
            meaning: "try again later: a deadline passed, retries ran out, a store lock was held too long, or (route add) "
                + "the provider's daily budget is spent"),
    ]

    /// What each `--json` prints, in the order of the command table: its fields as the command
    /// encodes them (`JSONFields`, generated from the encoded output by `JSONShapeTests`, never
    /// written by hand), whether it is an array of them, and what the fields mean. Field names are a
    /// stable contract; every key is always present, `null` when it has no value; times are ISO
    /// 8601 with the zone's offset.
    static let jsonShapes: [(command: String, isArray: Bool, meaning: String)] = [
        ("refresh", false, "the feed's parts are null when it was not read; warnings and the stdout notifier go to stderr, so stdout is the JSON alone"),
        ("routes", true, "minutes are null without data; status is CLEAR, SLOWING, CONGESTED, NO DATA, or ESTIMATE for a free-flow estimate (an open engine's, or a keyed route's fallback: no traffic in it, so no delay); source is wsdot, \(RouteProvider.allCases.map(\.rawValue).joined(separator: ", ")) or transit (a transit route's times are its next departure's walk and ride, delayMinutes how much later it arrives than the timetable said); from and to are a custom route's ends ({latitude, longitude}), null for the feed's; suspicious is true when the latest reading lies outside what the route can be and is held back (in suspiciousMinutes, currentMinutes null) until a second reading confirms it"),
        ("route", false, "as routes, plus where it runs, when you would arrive and who uses it; a transit route adds transit: {feed, fromStop, fromName, toStop, toName, line, walkMinutes, realtimeAt, realtimeProblem, notices} and departures: [{trip, line, headsign, scheduled, predicted, delayMinutes, canceled, skipped, arrival}], soonest first; predicted and delayMinutes are null without realtime data, arrival is at the second stop; a Transitous route adds itineraries: [{departure, arrival, duration, transfers, legs: [{mode, line, headsign, from, to, departure, arrival, scheduledDeparture, realtime, cancelled}]}], soonest first, duration in minutes door to door; an OSRM or Valhalla route adds freeFlowMinutes, distanceKm and live (false): its time is a free-flow estimate, never traffic"),
        ("place list", true, "label is what a search found (null for coordinates typed in); source is coordinates, nominatim or transitous"),
        ("transit list", true, "URLs without their keys, headers by name only"),
        ("transit stops", true, "metres from --near, else null"),
        ("calendar list", true, "location is a file's name or a URL's host (never its path: a private calendar's secret); kind is departures or skip; route is the route every event uses, else from and provider time a route to each event's place; problem is why the last reading failed (its last good copy is used); unreadable lists the events skipped and why"),
        ("calendar events", true, "by start; recurrenceId is an instance's original start (null for a single event); an all-day event's start and end are midnights in the saved zone, end exclusive; skipped is why it is not used (all-day, cancelled, free/transparent, not matched, past; with --from: no location, place not found, place not looked up yet), null when used"),
        ("export list", true, "location is a URL's scheme, host and port (an MQTT broker's with its topic prefix; never a user, password or token) or a file's path; lastSuccessAt is when it last sent or wrote a change; problem is why its last attempt failed (tried again at the next run), null when it did not"),
        ("brief", false, "best and worst are route objects, the lists route IDs"),
        ("favorites list", false, "an array of route IDs (strings), in order"),
        ("schedule list", true, "days are weekday numbers 1-7, 1 = Sunday; notify is the notifier names it sends to, null for all; kind is at or arrive-by, and for arrive-by, hour and minute and arriveBy (\"09:00\") are the arrival; onTimePercent is --on-time's share, null when the leave time is planned on today's times"),
        ("schedule show", false, "one schedule list item"),
        ("group list", true, ""),
        ("pause list", true, "dates are YYYY-MM-DD in the schedules' zone; scheduleID is null for every schedule"),
        ("pending", false, "requests (soonest first) and deferred are arrays of {id, scheduleID, weekday, hour, minute, nextFire, title, body, arriveBy}, arriveBy being an arrive-by alert's arrival (nextFire is when to leave); pauses as pause list"),
        ("delivered", true, "newest first; outcome is delivered, failed, missed, suppressed or claimed; key is the alert's key, shared by the alerts that replace one another; handle is the channel's ID for the notification (ntfy's message ID, Telegram's message_id), null where it has none; action is sent, updated, cleared, unchanged or failed, null for a decision that sent nothing; leave is an arrive-by alert's leave time as it said it"),
        ("notify list", true, "id is the number notify remove takes; kind is stdout, desktop, exec, webhook, ntfy, gotify, pushover, telegram, matrix, discord, slack, json or email; target is where it sends without a secret (a server with its topic hidden, chat IDs, a program, a host), null where that is the secret; options are its settings (priority, tags, silent, msgtype, arguments, format, header names…); credentials says whether it holds any (never shown)"),
        ("watch list", true, "overUsual is true for --over auto (overMinutes then stands in where history is thin); isOver is null before the first check"),
        ("commute list", true, "in the order added; routeIDs are the ways, in the order compare lists them"),
        ("compare", false, "ways in the commute's order; basis is live (a fresh live time), usual (no live time: minutes is the usual median, rounded) or none (nothing competes: minutes is null; estimate is an open engine's free-flow minutes, never compared); usual is the median for now's weekday and quarter hour over the typical weeks, usualP90 its 90th percentile, usualReadings and usualDays what stands behind them (null with too few); versusUsual is a live time less the usual one; best is the way with the fewest minutes, marginMinutes its lead over the next (null with one way to compare), null when none competes"),
        ("reliability", true, "one object per arrive-by schedule: arriveBy and bufferMinutes, onTimePercent (null plans on the median), and ways: [{route, name, days: [{weekday, leave, estimateMinutes, days, onTime, medianSpare, latestLate, recordedDays}], worstWeekday}]; weekday 1-7, 1 = Sunday; leave (\"08:09\") is the planned departure, null with fewer than \(DepartureTimes.minimumDays) days; days is how many recorded days had a reading within 15 minutes of it, onTime how many of them arrived by the arrival, medianSpare the median minutes to spare (negative: late), latestLate the most minutes late (null: never)"),
        ("history", false, "weekday 1-7, 1 = Sunday; start is the quarter hour (\"07:00\") in zone; median and p90 in minutes (to a tenth); readings are those since `since` (local midnight, --days N back), oldest first"),
        ("best-time", false, "each choice is {route, leave, minutes, arrival, weeks, readings} or null when no quarter hour has enough readings; leastTravel's minutes are the median, onTime's the 90th percentile"),
        ("status", false, "sources gives each source (wsdot, a provider, transit NAME) its newest reading (null for timetable times alone) and whether it is over an hour old; a part whose file cannot be read is null, with the reason in errors"),
        ("doctor", false, "status is ok, warning or problem; alertsWillGoOut is false when a problem stops alerts (stopsAlerts), alertsCurrent is false when any problem is left (refreshes failing, old data: alerts go out carrying old times)"),
        ("config show", false, "contact is null when not set; watches are {routeID, overMinutes, overUsual}; notifiers are {id, kind, summary, program, arguments, url, format, headers, click}; a secret is \"set\" or null, a URL its host with …, a header its name"),
    ]

    /// One command's `--json`, as the manual says it: `an array of {id, name, …}; what they mean`.
    static func jsonShape(_ command: String) -> String {
        guard let entry = jsonShapes.first(where: { $0.command == command }) else { return "" }
        let fields = JSONFields.shapes[command] ?? ""
        guard !fields.isEmpty else { return entry.meaning }
        let shape = (entry.isArray ? "an array of " : "") + fields
        return entry.meaning.isEmpty ? shape : shape + "; " + entry.meaning
    }

    /// `--help`'s one line of exit statuses.
    static var exitSummary: String {
        "Exit codes: " + exitStatuses.map { "\($0.code.rawValue) \($0.label)" }.joined(separator: ", ") + " (man traveltimes: EXIT STATUS)."
    }
}

extension Reference {
    /// The README's tables of routing providers, notification services and exports, made from
    /// their registries (`RouteProvider.descriptor`, `Channel.services`, `ExportTarget.Kind`), so
    /// the README cannot fall behind them: `ReadmeTablesTests` compares them with README.md.
    static var readmeTables: String {
        func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
        /// Text in a cell: no `|` to end it, no `<route>` for a renderer to take for a tag.
        func cell(_ text: String) -> String {
            text.replacing("|", with: "\\|").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
        }
        func mode(_ provider: RouteProvider) -> String {
            switch provider.descriptor.mode {
            case .liveTraffic: "car, live traffic"
            case .freeFlow: "car, free-flow estimate"
            case .transit: "public transport"
            }
        }
        let providers = [
            row(["`--provider`", "gives", "key", "requests a day (default)", "base URL (`config set`, variable)"]),
            row(["---", "---", "---", "---:", "---"]),
        ] + RouteProvider.allCases.map { provider in
            let descriptor = provider.descriptor
            let key = descriptor.keyVariable.map { "`\(provider.keySetting)` or `\($0.name)`" } ?? "none (\(descriptor.software ?? "its software"), at most \(descriptor.requestsPerMinute) a minute)"
            return row([
                "`\(provider.rawValue)` (\(descriptor.displayName))", mode(provider), key, descriptor.defaultBudget.formatted(),
                "\(descriptor.defaultBaseURL) (`\(provider.rawValue)-url`, `\(descriptor.baseURLVariable.name)`)",
            ])
        }
        let channels = [row(["notifier", "URL schemes", "updated in place", "cleared when over"]), row(["---", "---", "---", "---"])]
            + Channel.facts.map { facts in
                row([facts.kind, facts.schemes.map { "`\($0)`" }.joined(separator: ", "), facts.canUpdate ? "yes" : "no", facts.canClear ? "yes" : "no"])
            }
        let exports = [row(["`export add`", "where", "what it publishes"]), row(["---", "---", "---"])]
            + ExportTarget.Kind.allCases.map { kind in
                row(["`\(kind.rawValue)`", "`\(kind.form)`", cell(kind.summary)])
            }
        return (providers + [""] + channels + [""] + exports).joined(separator: "\n")
    }
}

extension Int {
    /// `2,500`.
    fileprivate func formatted() -> String {
        let digits = String(self)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }
}
