/// One option a command accepts.
struct OptionSpec: Sendable {
    /// `--at`.
    var name: String
    /// `TIME` for an option that takes a value; nil for a flag.
    var value: String?
    var help: String
    /// May be given more than once (`--route 1 --route 96`).
    var repeatable = false
    /// A one-letter spelling of a flag: `-q`.
    var short: String? = nil
    /// What the value is, for completions.
    var values: ValueKind? = nil
    /// Must be given: shown without brackets in the usage line, and checked by the parser.
    var required = false
}

/// What the words after a command mean, before the command interprets them. Commands read it
/// through their declarations (`Option`, `Flag`), never by an option's name.
struct ParsedArguments: Sendable, Equatable {
    var positionals: [String] = []
    fileprivate(set) var values: [String: [String]] = [:]
    fileprivate(set) var flags: Set<String> = []

    /// The last value given for an option.
    func value(for option: OptionSpec) -> String? { values[option.name]?.last }
    func values(for option: OptionSpec) -> [String] { values[option.name] ?? [] }
    func isGiven(_ option: OptionSpec) -> Bool { flags.contains(option.name) || values[option.name] != nil }
}

/// A command line that does not fit the command. Exit 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The command whose help explains it: `schedule add`.
    var command: String

    var description: String { message }
}

/// Reads words against a command's options. Pure: no I/O, tested directly.
enum ArgumentParser {
    /// `--name value`, `--name=value`, `-h`; `--` ends the options. Positional counts are checked
    /// against `positionals`.
    /// With `verbatimAfterFirstPositional`, everything after the first positional is positional too,
    /// flags included (`notify add exec notify-send -u {urgency}`).
    static func parse(
        _ words: [String], options: [OptionSpec], positionals: ClosedRange<Int>, command: String,
        verbatimAfterFirstPositional: Bool = false, argumentsLabel: String = ""
    ) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            // `-3` is a value (a negative number, refused by what reads it), not an option.
            let isNumber = word.count > 1 && word.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !optionsEnded, word.hasPrefix("-"), word != "-", !isNumber else {
                parsed.positionals.append(word)
                if verbatimAfterFirstPositional { optionsEnded = true }
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            if let long = options.first(where: { $0.short == word }) {
                name = long.name
            } else if word == "-h" {
                name = Options.help.spec.name
            }
            var inlineValue: String?
            if name == word, let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let spec = byName[name] else {
                var message = "Unknown option '\(name)' for '\(command)'."
                if let suggestion = Suggestions.closest(to: name, in: options.map(\.name)) {
                    message += " Did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message, command: command)
            }
            guard let valueName = spec.value else {
                guard inlineValue == nil else {
                    throw UsageError(message: "'\(name)' takes no value.", command: command)
                }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else {
                    throw UsageError(message: "'\(name)' needs a value: \(name) \(valueName).", command: command)
                }
                value = words[index]
                index += 1
            }
            if parsed.values[name] != nil, !spec.repeatable {
                throw UsageError(message: "'\(name)' was given more than once.", command: command)
            }
            parsed.values[name, default: []].append(value)
        }
        if parsed.flags.contains(Options.help.spec.name) { return parsed }
        // A required option is checked from its declaration, as the usage line shows it.
        if let missing = options.first(where: { $0.required && !parsed.isGiven($0) }) {
            throw UsageError(message: "Missing \(missing.name)\(missing.value.map { " \($0)" } ?? "").", command: command)
        }
        if parsed.positionals.count > positionals.upperBound {
            let extra = parsed.positionals[positionals.upperBound]
            throw UsageError(message: "Unexpected argument '\(extra)'.", command: command)
        }
        if parsed.positionals.count < positionals.lowerBound {
            // Named as the usage line names it: `Missing NAME: traveltimes calendar remove NAME.`
            let label = argumentsLabel.isEmpty ? "argument" : argumentsLabel
            throw UsageError(message: "Missing \(label)" + (argumentsLabel.isEmpty ? "." : ": traveltimes \(command) \(argumentsLabel)."), command: command)
        }
        return parsed
    }
}
