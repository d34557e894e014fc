import CommuteCore
import FoundationEssentials

extension Commands {
    enum TransitAddCommand {
        static let command = Command(
            name: "transit add",
            summary: "Add a transit agency's GTFS feeds: its timetable zip, and its realtime trip updates and service alerts",
            arguments: "NAME",
            positionals: 1...1,
            options: [
                staticFeed,
                realtime,
                alerts,
                header,
                timeout,
                Options.now,
            ],
            discussion: """
                NAME: lowercase letters, digits and dashes, starting with a letter (metro). A relative
                path is kept as a full one, for timers and cron. The timetable is fetched now and must be
                a GTFS feed (agency.txt with a time zone, stops, trips, a calendar; every file whole);
                nothing is saved otherwise. `refresh` asks for it again at most daily, with its ETag and
                Last-Modified, and reads the realtime feeds every time. The URLs and the header values
                are secrets, kept only in config.json (mode 0600) and shown without their keys: give
                --header - to read 'Name: value' lines from standard input, out of argv.
                Then find your stops with `transit stops NAME --search TEXT` and add the trip with
                `route add ID --transit NAME --from-stop STOP --to-stop STOP`.
                """
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            guard TransitFeed.isValidName(name) else {
                throw invocation.usage(
                    "Invalid feed name '\(DisplayText.line(String(name.prefix(40))))': use lowercase letters, digits and dashes, starting with a letter (metro).")
            }
            guard let staticURL = try invocation.value(Self.staticFeed) else { throw invocation.usage("Missing --static URL|FILE: the GTFS zip.") }
            // A relative path is kept as a full one: timers and cron run in another directory.
            func located(_ text: String) -> String {
                guard case .file(let path) = TransitLocation(text), !path.hasPrefix("/") else { return text }
                return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                    .standardizedFileURL.path
            }
            let feed = TransitFeed(
                name: name, staticURL: located(staticURL), realtimeURL: try invocation.value(Self.realtime).map(located),
                alertsURL: try invocation.value(Self.alerts).map(located), headers: try transitHeaders(invocation))
            let io = invocation.io.redacting(feed.secrets)
            for location in feed.locations where TransitLocation(location.text) == nil {
                throw invocation.usage("Invalid --\(location.kind) '\(TransitFeed.shown(location.text))': give an http(s) URL, a file:// URL or a path.")
            }
            let commute = try invocation.commute()
            let timeout = try invocation.value(Self.timeout) ?? Options.defaultTimeout
            let client = HelperHTTPClient(
                helperPath: invocation.fetchHelperPath(), maximumBodyBytes: Transit.largestTimetableZip, environment: invocation.childEnvironment)
            let contents: TransitTimetable.Contents
            do {
                let spinner = Spinner(io: io, message: "Fetching \(TransitFeed.shown(staticURL))")
                defer { spinner.stop() }
                contents = try commute.transit.addTransitFeed(feed, client: client, timeout: timeout)
            } catch let problem as TransitProblem {
                throw TransitFailed(problem: problem, context: "feed \(name) was not added", secrets: feed.secrets)
            }
            io.out("Added transit feed \(name): \(contents.stops) stops, \(contents.lines) lines, \(contents.trips) trips in \(contents.timeZone), from \(TransitFeed.shown(staticURL))"
                + (feed.realtimeURL == nil ? "; no realtime feed, so departures are the timetable's." : "; realtime read at every refresh."))
            io.out("Find your stops: traveltimes transit stops \(name) --search NAME")
        }

        /// `--header 'Name: value'`, repeatable; `--header -` reads such lines from standard input.
        private static func transitHeaders(_ invocation: Invocation) throws -> [TransitFeed.Header]? {
            var texts: [String] = []
            for text in try invocation.values(Self.header) {
                if text == "-" {
                    guard let input = StandardInput.line(maximumBytes: 4_096) else {
                        throw invocation.usage("No header on standard input: give one line 'Name: value'.")
                    }
                    texts.append(input)
                } else {
                    texts.append(text)
                }
            }
            let headers = try texts.map { text in
                guard let header = TransitFeed.Header(text) else {
                    throw invocation.usage("--header takes one line 'Name: value', such as 'X-Api-Key: …'.")
                }
                return header
            }
            return headers.isEmpty ? nil : headers
        }

        static let staticFeed = Option<String>("--static", value: "URL|FILE", help: "The timetable: a GTFS zip (http(s) URL, file:// URL or path)", values: .file, required: true)
        static let realtime = Option<String>("--realtime", value: "URL|FILE", help: "GTFS-realtime trip updates (delays, cancellations)", values: .file)
        static let alerts = Option<String>("--alerts", value: "URL|FILE", help: "GTFS-realtime service alerts", values: .file)
        static let header = Option<String>("--header", value: "'Name: value'", help: "Sent with every request, for an agency that wants a key (repeatable; - reads lines from stdin)", repeatable: true)
        static let timeout = Options.timeout(help: "Deadline for fetching the timetable, retries included (default 25)")
    }
}
