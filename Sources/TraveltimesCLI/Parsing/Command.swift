/// One command: its words, help text, options and handler. `--help` is generated from this, so the
/// help always tells what the parser accepts.
struct Command: Sendable {
    /// `schedule add`.
    var name: String
    var summary: String
    /// What follows the command: `ID...`.
    var arguments: String = ""
    var positionals: ClosedRange<Int> = 0...0
    /// What each positional argument is, for completions (the last stands for any after it).
    var argumentValues: [ValueKind] = []
    /// The options it takes, as declared: what `--help`, the parser and the completions read.
    var declarations: [any OptionDeclaring] = []
    /// Paragraphs after the options.
    var discussion: String = ""
    /// Words after the first argument are taken as they are, flags included.
    var verbatimArguments = false
    /// Whether the command may save part of its work before an unreadable store file stops it, and
    /// says which part itself (`refresh`). Every other command reads all it needs before it writes,
    /// so a store error means nothing was changed, and its message says so.
    var reportsPartialWork = false
    var run: @Sendable (Invocation) throws -> Void

    init(
        name: String, summary: String, arguments: String = "", positionals: ClosedRange<Int> = 0...0, argumentValues: [ValueKind] = [],
        options: [any OptionDeclaring] = [], discussion: String = "", verbatimArguments: Bool = false, reportsPartialWork: Bool = false,
        run: @escaping @Sendable (Invocation) throws -> Void
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.positionals = positionals
        self.argumentValues = argumentValues
        declarations = options
        self.discussion = discussion
        self.verbatimArguments = verbatimArguments
        self.reportsPartialWork = reportsPartialWork
        self.run = run
    }

    /// The options' specifications, in the order declared.
    var options: [OptionSpec] { declarations.map(\.spec) }

    /// The options as parsed: the command's own plus `--help`.
    var allOptions: [OptionSpec] { options + [Options.help.spec] }

    /// `Usage: traveltimes watch add ROUTE --over MIN|auto [--notify NAMES]`, from the
    /// declarations alone: a required option bare, an optional one in brackets, a repeatable one
    /// once with `…` — so the line cannot drift from what the parser accepts.
    var usage: String {
        var usage = "Usage: traveltimes \(name)"
        if !arguments.isEmpty { usage += " \(arguments)" }
        for option in options {
            let text = option.value.map { "\(option.name) \($0)" } ?? option.name
            usage += (option.required ? " \(text)" : " [\(text)]") + (option.repeatable ? "…" : "")
        }
        return usage
    }

    var help: String {
        var lines = [usage, "", summary]
        if !discussion.isEmpty { lines += ["", discussion] }
        lines += ["", "Options:"]
        var table = Table([.left, .left])
        for option in allOptions {
            let label = (option.short.map { "\($0), " } ?? "") + option.name + (option.value.map { " \($0)" } ?? "")
            table.add(["  " + label, option.help + (option.required ? " (required)" : "")])
        }
        lines += table.render()
        // A command that is also a group (`route ID`, `route add`…) lists its subcommands.
        let subcommands = Commands.subcommands(of: name).map(\.name)
        if !subcommands.isEmpty {
            lines += ["", "Commands:"] + Commands.table(of: subcommands)
            lines += ["", "See 'traveltimes \(name) COMMAND --help' for one of them."]
        }
        return lines.joined(separator: "\n")
    }
}

/// Options shared by several commands, worded once.
enum Options {
    static let help = Flag("--help", help: "Show this help", short: "-h")
    static let quiet = Flag("--quiet", help: "Print nothing on success; a warning only when something changed (for cron)", short: "-q")
    static let json = Flag("--json", help: "Print JSON for scripts (stable field names)")
    /// Read with the zone in force (`Invocation.now(in:)`), which a declaration cannot know.
    static let now = Option<String>("--now", value: "TIME", help: "Act as if it were this ISO 8601 time (e.g. 2025-11-04T07:00:00-08:00)")
    static let yes = Flag("--yes", help: "Confirm without asking (needed when not on a terminal)")
}
