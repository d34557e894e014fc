/// What a command's declaration lists: an option or a flag, each to be parsed, shown in `--help`,
/// the man page and the completions from the same declaration.
protocol OptionDeclaring: Sendable {
    var spec: OptionSpec { get }
}

/// An option bound to the type of its value: declared once — its name, its help, how a word is
/// read and what is said of a word that is not one — and read as that type (`invocation.value(
/// at)` is a `TimeOfDay?`). A word that cannot be read is a usage error naming the option.
struct Option<Value: Sendable>: OptionDeclaring {
    let spec: OptionSpec
    /// The value a word stands for, or the error that says why it is none.
    let read: @Sendable (_ word: String, _ command: String) -> Result<Value, any Error>

    /// An option whose words are read by `read`; a word it cannot read is a usage error of the
    /// command, saying `invalid`: `Invalid --delay 'x': use seconds from 0 to 300`.
    init(
        _ name: String, value: String, help: String, repeatable: Bool = false, values: ValueKind? = nil, required: Bool = false,
        read: @escaping @Sendable (String) -> Value?, invalid: @escaping @Sendable (String) -> String
    ) {
        spec = OptionSpec(name: name, value: value, help: help, repeatable: repeatable, values: values, required: required)
        self.read = { word, command in read(word).map { .success($0) } ?? .failure(UsageError(message: invalid(word), command: command)) }
    }

    /// An option whose words are read by `parse`, which throws the error a word that is not a value
    /// stands for (a `ModelError` quoting it).
    init(
        _ name: String, value: String, help: String, repeatable: Bool = false, values: ValueKind? = nil, required: Bool = false,
        parse: @escaping @Sendable (String) throws -> Value
    ) {
        spec = OptionSpec(name: name, value: value, help: help, repeatable: repeatable, values: values, required: required)
        self.read = { word, _ in Result { try parse(word) } }
    }
}

extension Option where Value == String {
    /// An option whose value is its text as given.
    init(_ name: String, value: String, help: String, repeatable: Bool = false, values: ValueKind? = nil, required: Bool = false) {
        self.init(name, value: value, help: help, repeatable: repeatable, values: values, required: required, parse: { $0 })
    }
}

/// An option without a value: given, or not.
struct Flag: OptionDeclaring {
    let spec: OptionSpec

    init(_ name: String, help: String, short: String? = nil) {
        spec = OptionSpec(name: name, help: help, short: short)
    }
}

extension OptionSpec: OptionDeclaring {
    var spec: OptionSpec { self }
}

extension Invocation {
    /// The option's value (the last given), read as its type; nil when it was not given.
    func value<Value>(_ option: Option<Value>) throws -> Value? {
        guard let text = arguments.value(for: option.spec) else { return nil }
        return try option.read(text, command.name).get()
    }

    /// Every value given for a repeatable option, in order.
    func values<Value>(_ option: Option<Value>) throws -> [Value] {
        try arguments.values(for: option.spec).map { try option.read($0, command.name).get() }
    }

    /// Whether the option was given at all.
    func isGiven(_ option: some OptionDeclaring) -> Bool { arguments.isGiven(option.spec) }

    /// Whether the flag was given.
    func isSet(_ flag: Flag) -> Bool { arguments.isGiven(flag.spec) }
}
