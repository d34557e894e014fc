import CommuteCore

/// `traveltimes manpage`: a roff man page from the command table that `--help` renders, so a new
/// command or option is documented in both without being written twice.
enum Manual {
    static var page: String {
        var roff: [String] = [
            #".TH TRAVELTIMES 1 "" "traveltimes \#(CLI.version)" "User Commands""#,
            ".SH NAME",
            #"traveltimes \- commute alerts from live travel times"#,
            ".SH SYNOPSIS",
            ".B traveltimes",
            ".I command",
            ".RI [ options ]",
            ".SH DESCRIPTION",
        ]
        roff += paragraphs(description)
        roff.append(".SH COMMANDS")
        for command in Commands.all {
            roff.append(".TP")
            roff.append(#".B "\#(text(command.name))""#)
            roff.append(text(usage(command)))
            roff.append(".br")
            roff.append(text(command.summary) + ".")
            if !command.discussion.isEmpty {
                roff.append(".RS")
                roff += paragraphs(command.discussion)
                roff.append(".RE")
            }
            guard !command.options.isEmpty else { continue }
            roff.append(".RS")
            for option in command.allOptions {
                roff.append(".TP")
                let label = (option.short.map { #"\fB\#(text($0))\fR, "# } ?? "") + #"\fB\#(text(option.name))\fR"#
                roff.append(label + (option.value.map { #" \fI\#(text($0))\fR"# } ?? ""))
                roff.append(text(option.help))
            }
            roff.append(".RE")
        }
        roff.append(#".SH "JSON OUTPUT""#)
        roff += paragraphs("Field names are a stable contract. Every key is always present, null when it has no value; times are ISO 8601 with the zone's offset.")
        for (command, _, _) in Reference.jsonShapes {
            roff += [".TP", #".B "\#(text(command)) \-\-json""#, text(Reference.jsonShape(command))]
        }
        roff.append(".SH ENVIRONMENT")
        for variable in Reference.environment {
            roff += [".TP", ".B \(variable.name)", text(variable.meaning)]
        }
        roff.append(".SH FILES")
        roff += paragraphs("The store is $TRAVELTIMES_HOME, else $XDG_DATA_HOME/traveltimes, else ~/.local/share/traveltimes; it is mode 0700 and its files 0600.")
        for file in Reference.files {
            roff += [".TP", #".I \#(text(file.name))"#, text(file.meaning)]
        }
        roff.append(#".SH "EXIT STATUS""#)
        for status in Reference.exitStatuses {
            roff += [".TP", ".B \(status.code.rawValue)", text(status.meaning)]
        }
        roff.append(".SH EXAMPLES")
        roff += paragraphs(examples)
        return roff.joined(separator: "\n") + "\n"
    }

    static let description = """
        traveltimes keeps a cache of live travel times, your favorite routes, and notification
        schedules ("weekdays at 7:00 AM, these routes"). refresh, run from cron or a systemd timer,
        fetches fresh times and re-plans every alert with them; tick, run every minute, delivers the
        alerts that are due through your notifiers: stdout (cron mails it), a program such as
        notify-send, or a webhook such as ntfy, Slack or Discord.

        Every command takes --help. --now TIME makes a command act as if it were that moment. The
        zone schedules live in is saved with the first schedule; TRAVELTIMES_TZ overrides it for one
        command.
        """

    static let examples = """
        Try the whole job on the bundled sample, in a throwaway store:
          traveltimes demo
        Set up, then let the timers run it:
          traveltimes config set source \(FeedSource.wsdotURL)
          traveltimes refresh
          traveltimes favorites add 1 96
          traveltimes schedule add --preset morning
          traveltimes notify add exec notify-send -u {urgency} {title} {body}
          traveltimes install systemd --enable
          traveltimes doctor
        Scripts read JSON:
          traveltimes routes --json | jq -r '.[] | select(.status == "CONGESTED") | .name'
        """

    /// `traveltimes schedule add [--at TIME]...`: the usage line of `--help`.
    private static func usage(_ command: Command) -> String {
        String(command.help.prefix { $0 != "\n" }.dropFirst("Usage: ".count))
    }

    /// Text as roff reads it: a backslash is `\e`, a hyphen `\-`, anything past ASCII `\[uXXXX]`,
    /// and a line never starts a request.
    static func text(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += #"\e"#
            case "-": escaped += #"\-"#
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += #"\[u"# + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? #"\&"# + escaped : escaped
    }

    /// Paragraphs of prose; indented lines (commands to type) are kept as they are.
    private static func paragraphs(_ prose: String) -> [String] {
        var roff: [String] = []
        var literal = false
        // A literal block is set in from its first line's indent; deeper lines keep the rest of theirs.
        var base = 0
        for line in prose.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let indented = indent > 0
            if indented != literal {
                roff.append(indented ? ".nf\n.RS 4" : ".RE\n.fi")
                literal = indented
                base = indent
            }
            if line.trimmingWhitespace().isEmpty {
                if !literal { roff.append(".PP") }
                continue
            }
            roff.append(text(indented ? String(line.dropFirst(min(base, indent))) : String(line)))
        }
        if literal { roff.append(".RE\n.fi") }
        return roff
    }
}
