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
    var options: [OptionSpec] = []
    /// Paragraphs after the options.
    var discussion: String = ""
    /// Words after the first argument are taken as they are, flags included.
    var verbatimArguments = false
    /// Whether the command may save part of its work before an unreadable store file stops it, and
    /// says which part itself (`refresh`). Every other command reads all it needs before it writes,
    /// so a store error means nothing was changed, and its message says so.
    var reportsPartialWork = false
    var run: @Sendable (Invocation) throws -> Void

    /// The options as parsed: the command's own plus `--help`.
    var allOptions: [OptionSpec] { options + [Options.help] }

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
    static let help = OptionSpec(name: "--help", help: "Show this help", short: "-h")
    static let quiet = OptionSpec(
        name: "--quiet", help: "Print nothing on success; a warning only when something changed (for cron)", short: "-q")
    static let json = OptionSpec(name: "--json", help: "Print JSON for scripts (stable field names)")
    static let now = OptionSpec(
        name: "--now", value: "TIME", help: "Act as if it were this ISO 8601 time (e.g. 2025-11-04T07:00:00-08:00)")
    static let yes = OptionSpec(name: "--yes", help: "Confirm without asking (needed when not on a terminal)")
}
