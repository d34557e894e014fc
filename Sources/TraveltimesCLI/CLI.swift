import CommuteCore
import FoundationEssentials

/// The command-line interface: words in, text and an exit code out.
public enum CLI {
    public static let version = Product.version

    /// Runs one command line (without the program name) and returns its exit status.
    public static func run(
        _ arguments: [String], environment: [String: String], io: TerminalIO,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) -> ExitCode {
        let arguments = Commands.spelledOneWay(arguments)
        guard let first = arguments.first else {
            io.out(shortUsage)
            return .success
        }
        switch first {
        case "--version", "version":
            io.out("traveltimes \(version)")
            return .success
        case "--help", "-h":
            io.out(fullHelp)
            return .success
        case "help":
            let topic = arguments.dropFirst().joined(separator: " ")
            guard !topic.isEmpty else {
                io.out(fullHelp)
                return .success
            }
            let words = topic.split(separator: " ").map(String.init)
            // `help help`, `help --help`: what help itself does.
            if ["help", "--help", "-h"].contains(topic) {
                io.out("Usage: traveltimes help [COMMAND]\n\nShow every command (traveltimes --help), or one command's help (the same as traveltimes COMMAND --help).")
                return .success
            }
            if let group = Commands.groupHelp(topic) {
                io.out(group)
                return .success
            }
            guard let command = Commands.named(topic)
                ?? (try? Commands.resolve(words).get().0)
            else {
                return fail(UsageError(message: unknownCommandMessage(topic), command: ""), io: io)
            }
            io.out(command.help)
            return .success
        default:
            break
        }
        // `transit --help`: the group's commands, not one of them.
        if arguments.count == 2, ["--help", "-h"].contains(arguments[1]), let group = Commands.groupHelp(first) {
            io.out(group)
            return .success
        }
        let command: Command
        let rest: [String]
        switch Commands.resolve(arguments) {
        case .success(let (resolved, words)):
            command = resolved
            rest = words
        case .failure(let error):
            return fail(error, io: io)
        }
        do {
            let parsed = try ArgumentParser.parse(
                rest, options: command.allOptions, positionals: command.positionals, command: command.name,
                verbatimAfterFirstPositional: command.verbatimArguments, argumentsLabel: command.arguments)
            if parsed.isGiven(Options.help.spec) {
                io.out(command.help)
                return .success
            }
            let invocation = Invocation(
                command: command, arguments: parsed, environment: environment, io: io, clock: clock)
            try command.run(invocation)
            return .success
        } catch let error as StoreError where !command.reportsPartialWork {
            return fail(NothingChanged(error: error), io: io)
        } catch {
            return fail(error, io: io)
        }
    }

    /// Prints an error as one line on stderr and returns its exit status, which the error itself
    /// states (`ProcessError`). The library never does this.
    static func fail(_ error: any Error, io: TerminalIO) -> ExitCode {
        if let error = error as? any ProcessError, error.isQuietRepeat { return error.exitCode }
        let (code, message): (ExitCode, String) =
            if let error = error as? any ProcessError { (error.exitCode, error.explanation) }
            // Only a bug reaches here: every error a command throws is a ProcessError.
            else { (.failure, "unexpected error: \(error)") }
        // One line, whatever the message quotes (a feed's value, a typed argument).
        io.err("traveltimes: \(DisplayText.line(message))")
        return code
    }

    static func unknownCommandMessage(_ word: String) -> String {
        var message = "Unknown command '\(word)'."
        let names = Array(Set(Commands.all.map { String($0.name.split(separator: " ")[0]) })) + ["help", "version"]
        // Never the word itself (`help route adds` suggesting `route adds`).
        if let suggestion = Suggestions.closest(to: word, in: names.sorted()), suggestion != word {
            message += " Did you mean '\(suggestion)'?"
        }
        return message + " See 'traveltimes --help'."
    }

    static let shortUsage = """
        traveltimes \(version) — commute alerts with travel times as they are now: by car or by bus, anywhere

        Usage: traveltimes <command> [options]

        Try:   traveltimes demo
        Help:  traveltimes --help, or traveltimes <command> --help
        """

    static var fullHelp: String {
        var table = Table([.left, .left])
        for command in Commands.all {
            table.add(["  " + command.name, command.summary])
        }
        var variables = Table([.left, .left])
        for variable in Reference.environment {
            variables.add(["  " + variable.name, variable.meaning])
        }
        let environment = variables.render().joined(separator: "\n")
        return """
            traveltimes \(version) — commute alerts with travel times as they are now: by car or by bus, anywhere

            Usage: traveltimes <command> [options]

            Commands:
            \(table.render().joined(separator: "\n"))

            Every command takes --help. Also: traveltimes --version.

            Environment:
            \(environment)

            \(Reference.exitSummary)
            """
    }
}
