import CommuteCore
import FoundationEssentials

extension Commands {
    enum ExportAddCommand {
        static let command = Command(
            name: "export add",
            summary: "Publish the commute: Home Assistant, MQTT, an iCalendar file, a Prometheus textfile",
            arguments: "KIND WHERE",
            positionals: 2...2,
            argumentValues: [.words(ExportTarget.Kind.allCases.map(\.rawValue))],
            options: [token, timeout, Options.now],
            discussion: """
                KIND WHERE is one of:
                \(ExportTarget.Kind.allCases.flatMap(\.help).map { "  " + $0 }.joined(separator: "\n"))
                The export is made now and must work; nothing is saved otherwise. Then each refresh,
                and each tick that changes something, sends or writes what changed (MQTT: every
                retained message again, for a broker that forgot them); a run where nothing changed
                sends and writes nothing; a command that re-plans writes the files at once. A failure
                is said once (exit status unchanged) and tried again at the next refresh, and by tick
                after five minutes (a server that hangs costs one tick 5 s, not every tick); `doctor`
                shows it. Tokens and
                passwords are kept only in config.json (mode 0600) and never shown. Files are
                replaced whole (a reader never sees half of one), mode 0644.
                """
        ) { invocation in
            let words = invocation.arguments.positionals
            guard let kind = ExportTarget.Kind(rawValue: words[0].lowercased()) else {
                var message = "Unknown export '\(DisplayText.line(String(words[0].prefix(40))))': use \(ExportTarget.Kind.allCases.map(\.rawValue).spoken())."
                if let suggestion = Suggestions.closest(to: words[0], in: ExportTarget.Kind.allCases.map(\.rawValue)) { message += " Did you mean '\(suggestion)'?" }
                throw invocation.usage(message)
            }
            let commute = try invocation.commute()
            let place = words[1]
            let location: String
            do throws(ExportFailure) {
                location = try kind.location(of: place, currentDirectory: FileManager.default.currentDirectoryPath)
            } catch {
                throw invocation.usage(error.message)
            }
            var token: String?
            if kind.takesToken {
                guard try invocation.value(Self.token) == "-" else {
                    throw invocation.usage("Missing --token -: the long-lived access token, on standard input (`printf '%s\\n' \"$TOKEN\" | traveltimes export add \(kind.rawValue) URL --token -`).")
                }
                guard let line = StandardInput.line(maximumBytes: 4_096), ExportTarget.isValidToken(line) else {
                    throw invocation.usage("No token on standard input (one line, at most 4 KiB): `printf '%s\\n' \"$TOKEN\" | traveltimes export add \(kind.rawValue) URL --token -`.")
                }
                token = line
            }
            if !kind.takesToken, try invocation.value(Self.token) != nil { throw invocation.usage("--token is for homeassistant only.") }
            let target = ExportTarget(id: commute.exports.nextID(kind), kind: kind, location: location, token: token, createdAt: commute.now)
            let client = HelperHTTPClient(helperPath: invocation.fetchHelperPath(), maximumBodyBytes: 1 << 20, environment: invocation.childEnvironment)
            let outcome: Exports.Outcome
            do {
                let spinner = kind.isFile ? nil : Spinner(io: invocation.io, message: "Sending to \(target.shownLocation)")
                defer { spinner?.stop() }
                outcome = try commute.exports.add(target, client: client, timeout: try invocation.value(Self.timeout) ?? 10)
            } catch let failure as ExportFailure where failure.isUsersFault {
                throw invocation.usage("\(failure.message); the export was not added.")
            } catch let failure as ExportFailure {
                throw ExportFailed(message: "\(failure.message); the export was not added")
            }
            let count = if case .sent(let count) = outcome.result { count } else { 0 }
            invocation.io.out("Added export \(outcome.target.id) (\(kind.rawValue), \(target.shownLocation)): \(kind.added(count)). Each refresh and tick sends what changes.")
        }

        static let token = Option<String>("--token", value: "-", help: "homeassistant: read the long-lived access token from standard input")
        static let timeout = Options.timeout(help: "Deadline for the first export (default 10)")
    }
}

/// An export that could not be made: the outside's fault, 69.
struct ExportFailed: ProcessError, CustomStringConvertible {
    var message: String
    var exitCode: ExitCode { .unavailable }
    var description: String { message }
}
