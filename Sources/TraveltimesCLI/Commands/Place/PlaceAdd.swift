import CommuteCore
import FoundationEssentials

extension Commands {
    enum PlaceAddCommand {
        static let command = Command(
            name: "place add",
            summary: "Save a place by name: from LAT,LON, or found once by --search",
            arguments: "NAME [LAT,LON]",
            positionals: 1...2,
            options: [search, geocoder, pick, timeout, Options.now],
            discussion: """
                NAME: lowercase letters, digits and dashes, starting with a letter (home, office). Then
                --from NAME and --to NAME work wherever LAT,LON does. --search asks the geocoder once
                and keeps its answer in the store: the same text is never asked twice. One place found
                is saved and printed; several are listed, numbered, and nothing is saved until you
                choose with --pick N. Nominatim (OpenStreetMap) is the default: at most one request a
                second for everyone, so traveltimes keeps that pace across its processes; `config set
                geocoder-url` points at another Nominatim. --geocoder transitous asks Transitous
                (`config set transitous-url`). Every request names traveltimes and your contact
                (`config set contact`).
                """
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            let commute = try invocation.commute()
            let text = try invocation.value(Self.search)
            if invocation.arguments.positionals.count == 2 {
                guard text == nil else { throw invocation.usage("Give LAT,LON or --search TEXT, not both.") }
                let value = invocation.arguments.positionals[1]
                guard let point = Coordinate(value) else {
                    throw invocation.usage(
                        "Invalid LAT,LON '\(DisplayText.line(value))': use decimal degrees, such as 47.6062,-122.3321 (latitude -90 to 90, longitude -180 to 180).")
                }
                let place = try commute.places.add(name, at: point)
                invocation.io.out("Saved place \(place.name) at \(point).")
                return
            }
            guard let text else { throw invocation.usage("Missing LAT,LON or --search TEXT.") }
            let geocoder = try invocation.value(Self.geocoder) ?? .nominatim
            let access = try invocation.searchAccess(commute.configuration)
            let outcome: Places.SearchOutcome
            do {
                let spinner = Spinner(io: invocation.io, message: "Asking \(geocoder.displayName)")
                defer { spinner.stop() }
                outcome = try commute.places.search(
                    text, as: name, geocoder: geocoder, pick: try invocation.value(Self.pick), access: access,
                    timeout: try invocation.value(Self.timeout) ?? Options.defaultTimeout)
            }
            switch outcome {
            case .saved(let place, let fromCache):
                let point = place.coordinate.map(\.description) ?? "?"
                invocation.io.out("Saved place \(place.name) at \(point): \(place.label ?? "")\(fromCache ? " (found before; not asked again)" : "").")
                invocation.io.out(geocoder.attribution)
            case .ambiguous(let candidates):
                invocation.io.out("\(geocoder.displayName) found \(candidates.count) places for \"\(DisplayText.line(text))\"; nothing saved:")
                for (index, candidate) in candidates.enumerated() {
                    let point = candidate.coordinate.map(\.description) ?? "?"
                    invocation.io.out("  \(index + 1). \(candidate.label) (\(point))")
                }
                invocation.io.out(geocoder.attribution)
                throw ChoiceNeeded(command: "traveltimes place add \(name) --search \"\(DisplayText.line(text))\" --pick N")
            }
        }

        static let search = Option<String>(
            "--search", value: "TEXT", help: "Find it by this text (an address, a station, a landmark)",
            read: { text in
                let trimmed = text.trimmingWhitespace()
                return trimmed.isEmpty || trimmed.utf8.count > Geocoder.longestText || DisplayText.line(trimmed) != trimmed ? nil : trimmed
            },
            invalid: { _ in "Invalid --search: one line of 1 to \(Geocoder.longestText) characters." })
        static let geocoder = Option<Geocoder>(
            "--geocoder", value: "NAME", help: "nominatim (default) or transitous", values: .words(Geocoder.allCases.map(\.rawValue)),
            read: Geocoder.init(rawValue:), invalid: { "Unknown --geocoder '\(DisplayText.line($0))': use nominatim or transitous." })
        static let pick = Option<Int>(
            "--pick", value: "N", help: "Of several places found, save the Nth",
            read: { text in text.count <= 2 && text.allSatisfy(\.isASCIIDigit) ? Int(text).flatMap { $0 >= 1 ? $0 : nil } : nil },
            invalid: { _ in "Invalid --pick: the number of a place the search listed (1 to \(Geocoder.candidateCount))." })
        static let timeout = Options.timeout(help: "Deadline for the search, the wait for its turn included (default 25)")
    }
}

/// A search that found several places: nothing is saved until one is chosen.
struct ChoiceNeeded: ProcessError {
    var command: String
    var exitCode: ExitCode { .failure }
    var explanation: String { "several places match; nothing was saved: choose one with `\(command)`" }
}
