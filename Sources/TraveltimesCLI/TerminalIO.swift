import CommuteCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Where a command's text goes and where its answers come from. The real process uses the standard
/// streams; tests pass closures that collect the text.
public struct TerminalIO: Sendable {
    public var writeOut: @Sendable (String) -> Void
    public var writeError: @Sendable (String) -> Void
    /// Reads one line of the user's answer; nil at end of input.
    public var readLine: @Sendable () -> String?
    /// Whether a person can answer a question (standard input is a terminal).
    public var isInteractive: Bool
    /// Whether standard error is a terminal (progress display).
    public var errorIsTerminal: Bool
    /// Whether standard output is a terminal (colour, where a command has any).
    public var outputIsTerminal: Bool

    public init(
        writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        readLine: @escaping @Sendable () -> String? = { nil }, isInteractive: Bool = false,
        errorIsTerminal: Bool = false, outputIsTerminal: Bool = false
    ) {
        self.writeOut = writeOut
        self.writeError = writeError
        self.readLine = readLine
        self.isInteractive = isInteractive
        self.errorIsTerminal = errorIsTerminal
        self.outputIsTerminal = outputIsTerminal
    }

    /// The process's own standard streams.
    public static var standard: TerminalIO {
        TerminalIO(
            writeOut: { text in standardOutput(text) },
            writeError: { text in standardError(text) },
            readLine: { Swift.readLine() },
            isInteractive: isatty(STDIN_FILENO) == 1,
            errorIsTerminal: isatty(STDERR_FILENO) == 1, outputIsTerminal: isatty(STDOUT_FILENO) == 1)
    }

    /// The same streams with every secret removed from what is written.
    func redacting(_ secrets: [String]) -> TerminalIO {
        guard !secrets.isEmpty else { return self }
        var copy = self
        let (out, error) = (writeOut, writeError)
        copy.writeOut = { out(FeedSource.redact($0, secrets: secrets)) }
        copy.writeError = { error(FeedSource.redact($0, secrets: secrets)) }
        return copy
    }

    /// Writes lines to stdout. No control sequence reaches the terminal, whatever the text quotes.
    func out(_ line: String = "") { writeOut(DisplayText.terminal(line) + "\n") }
    /// Writes lines to stderr, likewise.
    func err(_ line: String) { writeError(DisplayText.terminal(line) + "\n") }
    /// One warning line on stderr.
    func warn(_ line: String) { writeError("traveltimes: warning: \(DisplayText.line(line))\n") }
}

/// Standard input, read by hand where a secret is given on it.
enum StandardInput {
    /// The first line (without its line break), read a byte at a time up to `maximumBytes`; nil
    /// when there is none, it is empty, or it is longer.
    static func line(maximumBytes: Int) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count <= maximumBytes {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.count <= maximumBytes else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
