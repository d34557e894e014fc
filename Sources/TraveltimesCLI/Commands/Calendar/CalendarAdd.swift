import CommuteCore
import FoundationEssentials

extension Commands {
    enum CalendarAddCommand {
        static let command = Command(
            name: "calendar add",
            summary: "Read a calendar: leave in time for its events (--route), or rest on its days (--skip)",
            arguments: "NAME",
            positionals: 1...1,
            options: [ics, route, from, provider, skip, buffer, match, horizon, timeout, Options.now],
            discussion: """
                NAME: lowercase letters, digits and dashes, starting with a letter (work, holidays).
                --ics is an .ics URL (Google's, Outlook's, iCloud's "secret address" — kept only in
                config.json, mode 0600, and shown by its host), a file:// URL or a path. It is read now
                and must be a calendar; `refresh` reads it again (a URL with its ETag and
                Last-Modified) and plans again. With --route, each timed event in the next --horizon
                days (14d) is an arrive-by alert: arrive at its start, leave its route's time and
                --buffer (10m) before, moved as traffic moves, counted under the alerts' cap. All-day,
                cancelled and free (transparent) events are not departures; --match TEXT keeps the
                events whose title or location holds TEXT. Or, with --from PLACE --provider P (tomtom,
                here, google, transitous, osrm, valhalla), each event has a route of its own from PLACE
                to its place: its GEO (or Apple's location), a saved place named as its LOCATION, else
                its LOCATION found once by Nominatim (at most 10 new a reading; kept); an event whose
                place is not found is skipped and says why. With --skip, any day with an event in it
                (holidays, vacation) pauses every schedule; `pending` names the event.
                """
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            guard CalendarSource.isValidName(name) else {
                throw invocation.usage("Invalid calendar name '\(DisplayText.line(String(name.prefix(40))))': use lowercase letters, digits and dashes, starting with a letter (work).")
            }
            guard let text = try invocation.value(Self.ics) else { throw invocation.usage("Missing --ics URL|FILE: the calendar.") }
            let isSkip = invocation.isSet(Self.skip)
            let routeID = try invocation.value(Self.route)
            let from = try invocation.value(Self.from)
            let provider = try invocation.value(Self.provider)
            let ways = [isSkip, routeID != nil, from != nil || provider != nil].filter { $0 }.count
            guard ways == 1 else {
                throw invocation.usage(ways == 0
                    ? "Missing --route ROUTE (the route its events use), --from PLACE --provider P (a route to each event's place) or --skip (its days pause every schedule)."
                    : "Give one of --route, --from with --provider, or --skip.")
            }
            if (from == nil) != (provider == nil) { throw invocation.usage("--from PLACE and --provider P go together.") }
            guard TransitLocation(text) != nil else { throw invocation.usage("Invalid --ics '\(FeedSource.display(text))': give an http(s) URL, a file:// URL or a path.") }
            // A relative path is kept as a full one: timers and cron run in another directory.
            var location = text
            if case .file(let path) = TransitLocation(text), !path.hasPrefix("/") {
                location = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)).standardizedFileURL.path
            }
            let commute = try invocation.commute()
            let source = CalendarSource(
                name: name, location: location, purpose: isSkip ? .skip : .departures, routeID: routeID.map { RouteID($0) }, from: from, provider: provider,
                bufferMinutes: try invocation.value(Self.buffer) ?? CalendarSource.defaultBufferMinutes, match: try invocation.value(Self.match),
                horizonDays: try invocation.value(Self.horizon) ?? CalendarSource.defaultHorizonDays, createdAt: commute.now)
            let client = HelperHTTPClient(helperPath: invocation.fetchHelperPath(), maximumBodyBytes: ICSReader.maximumBytes, environment: invocation.childEnvironment)
            let reading: CalendarState.Reading
            let planned: Int
            do {
                let spinner = Spinner(io: invocation.io, message: "Reading \(source.shownLocation)")
                defer { spinner.stop() }
                (reading, planned) = try commute.calendars.add(
                    source, client: client, access: from == nil ? nil : try invocation.searchAccess(commute.configuration),
                    timeout: try invocation.value(Self.timeout) ?? Options.defaultTimeout)
            } catch let failure as CalendarFailure where failure.isUsersFault {
                throw invocation.usage("\(failure.message); calendar \(name) was not added.")
            } catch let failure as CalendarFailure {
                throw CalendarFailed(message: "\(failure.message); calendar \(name) was not added")
            } catch let problem as Places.PlaceProblem {
                throw invocation.usage("--from: \(problem); calendar \(name) was not added.")
            }
            let events = reading.events ?? 0
            if isSkip {
                let days = planned
                invocation.io.out("Added calendar \(name) (\(source.shownLocation)): \(events) event\(events == 1 ? "" : "s"); every schedule rests on \(days) day\(days == 1 ? "" : "s") in the next \(source.horizonDays) days.")
            } else {
                let departures = planned
                let by = routeID.map { "by route \($0)" } ?? "from \(from ?? "") (\(provider?.displayName ?? ""))"
                invocation.io.out("Added calendar \(name) (\(source.shownLocation)): \(events) event\(events == 1 ? "" : "s"); \(departures) departure\(departures == 1 ? "" : "s") \(by) in the next \(source.horizonDays) days.")
            }
            for line in reading.unreadable ?? [] { invocation.io.out("  skipped, unreadable: \(line)") }
            invocation.io.out("See them: traveltimes calendar events \(name)")
        }

        static let ics = Option<String>("--ics", value: "URL|FILE", help: "The calendar: an .ics http(s) URL, file:// URL or path", values: .file, required: true)
        static let route = Option<String>("--route", value: "ROUTE", help: "The route every matched event uses (its departures)")
        static let from = Option<String>("--from", value: "PLACE", help: "With --provider: a route from this place (a saved place, or LAT,LON) to each event's place")
        static let provider = Option<RouteProvider>(
            "--provider", value: "PROVIDER", help: "With --from: who times each event's route (\(RouteProvider.allCases.map(\.rawValue).joined(separator: ", ")))",
            read: { RouteProvider(rawValue: $0.lowercased()) },
            invalid: { text in "Invalid --provider '\(DisplayText.line(text))': use \(RouteProvider.spoken(RouteProvider.allCases))." })
        static let skip = Flag("--skip", help: "Any day with an event in it pauses every schedule (holidays, vacation)")
        static let buffer = Option<Int>(
            "--buffer", value: "DURATION", help: "Minutes to spare at the event's place before it starts (default 10m)",
            parse: { text in
                guard let seconds = ScheduleParsing.duration(text), seconds % 60 == 0, seconds / 60 <= Schedule.Timing.largestBufferMinutes else {
                    throw UsageError(message: "Invalid --buffer '\(DisplayText.line(text))': use whole minutes such as 10m or 0 (at most 3h).", command: "")
                }
                return seconds / 60
            })
        static let match = Option<String>(
            "--match", value: "TEXT", help: "Keep the events whose title or location holds TEXT (any case)",
            read: { text in text.isEmpty || text.utf8.count > CalendarSource.largestMatchLength || DisplayText.line(text) != text ? nil : text },
            invalid: { _ in "Invalid --match: give one line of text, at most \(CalendarSource.largestMatchLength) bytes." })
        static let horizon = Option<Int>(
            "--horizon", value: "DAYS", help: "How far ahead events are planned, such as 14d (default 14d, at most 400d)",
            read: { text in
                let digits = text.hasSuffix("d") ? String(text.dropLast()) : text
                return Int(digits).flatMap { (1...CalendarSource.longestHorizonDays).contains($0) ? $0 : nil }
            },
            invalid: { text in "Invalid --horizon '\(DisplayText.line(text))': use days such as 14d (1d to \(CalendarSource.longestHorizonDays)d)." })
        static let timeout = Options.timeout(help: "Deadline for reading the calendar, retries included (default 25)")
    }
}

/// A calendar that could not be added or read: the outside's fault, 69.
struct CalendarFailed: ProcessError, CustomStringConvertible {
    var message: String
    var exitCode: ExitCode { .unavailable }
    var description: String { message }
}
