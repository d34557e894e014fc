@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing
@testable import TraveltimesCLI

/// Completions and the man page, both generated from the command table that `--help` renders.
@Suite(.ownThreads) struct CompletionTests {
    /// A store with the fixture, favorites 1, 96 and 4, the morning preset, a group and a notifier.
    func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["group", "add", "commute", "--route", "1,96"])
        try sandbox.ok(["notify", "add", "stdout"])
        return sandbox
    }

    /// The words each shell would complete, from the script `completions SHELL` prints, run in that
    /// shell as it runs completion. The binary is found on PATH, as a user's would be.
    func complete(_ shell: String, _ line: [String], in sandbox: Sandbox) throws -> [String] {
        let script = sandbox.path("completion.\(shell)")
        try Sandbox.write(script, Data(try sandbox.ok(["completions", shell]).stdout.utf8))
        let quoted = line.map { "'\($0)'" }.joined(separator: " ")
        let program: String
        switch shell {
        case "bash":
            program = "source \(script); COMP_WORDS=(traveltimes \(quoted)); COMP_CWORD=\(line.count); _traveltimes; printf '%s\\n' \"${COMPREPLY[@]}\""
        case "zsh":
            // Outside an interactive shell zsh has no completion system: its two functions are
            // stood in for, printing what they were given.
            program = "compdef() { : }; _describe() { print -l -- \"${(@P)${@[-1]}}\" }; _files() { print @files }; "
                + "source \(script); words=(traveltimes \(quoted)); CURRENT=\(line.count + 1); _traveltimes"
        default:
            program = "source \(script); complete -C\"traveltimes \(line.joined(separator: " "))\""
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell, "-c", program]
        var environment = sandbox.environment
        environment["PATH"] = URL(fileURLWithPath: Paths.binary).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shell) \(line)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndValuesFromTheStore() throws {
        let sandbox = try sandbox()
        let ids = try sandbox.scheduleIDs().map { String($0.prefix(8)) }
        #expect(try complete("bash", ["sch"], in: sandbox) == ["schedule"])
        #expect(try complete("bash", ["schedule", ""], in: sandbox) == ["add", "list", "show", "edit", "enable", "disable", "remove"])
        #expect(try complete("bash", ["schedule", "show", ""], in: sandbox) == ids)
        #expect(try complete("bash", ["schedule", "add", "--pr"], in: sandbox) == ["--preset"])
        #expect(try complete("bash", ["schedule", "add", "--preset", ""], in: sandbox) == ["morning", "evening"])
        #expect(try complete("bash", ["schedule", "add", "--route", ""], in: sandbox) == ["1", "96", "4"])
        #expect(try complete("bash", ["schedule", "add", "--days", "weekdays,s"], in: sandbox) == ["weekdays,sat", "weekdays,sun"])
        #expect(try complete("bash", ["route", "7"], in: sandbox) == ["7", "70", "71", "72", "73", "74", "77", "78", "79"])
        #expect(try complete("bash", ["brief", "--group", ""], in: sandbox) == ["commute"])
        #expect(try complete("bash", ["notify", "remove", ""], in: sandbox) == ["1"])
        #expect(try complete("bash", ["config", "set", "t"], in: sandbox) == ["timezone", "tomtom-key", "typical-weeks", "tomtom-url", "transitous-url"])
        // `route ` offers its subcommands beside the IDs; `route remove` only custom routes.
        try sandbox.ok(["route", "add", "home-work", "--from", "47.6,-122.3", "--to", "47.7,-122.2", "--provider", "here", "--no-check"])
        #expect(try complete("bash", ["route", "h"], in: sandbox) == ["home-work"])
        #expect(try complete("bash", ["route", "e"], in: sandbox) == ["edit"])
        #expect(try complete("bash", ["route", "remove", ""], in: sandbox) == ["home-work"])
        #expect(try complete("bash", ["route", "add", "x", "--provider", ""], in: sandbox) == ["tomtom", "here", "google", "transitous", "osrm", "valhalla"])
        #expect(try complete("bash", ["refresh", "--route", ""], in: sandbox) == ["home-work"])
        #expect(try complete("bash", ["completions", ""], in: sandbox) == ["bash", "zsh", "fish"])
        // A file option hands over to the shell's own file completion.
        let feed = try sandbox.feed("completion-feed.json") { _ in }
        #expect(try complete("bash", ["refresh", "--source", feed.dropLast(6) + ""], in: sandbox).contains(feed))
        // Nothing after a program's own arguments: they are not traveltimes's to complete.
        #expect(try complete("bash", ["notify", "add", "exec", "notify-send", "-"], in: sandbox).isEmpty)
    }

    @Test(ExternalTool.zsh.needed, ExternalTool.fish.needed) func zshAndFishCompleteTheSameWithDescriptions() throws {
        let sandbox = try sandbox()
        let zsh = try complete("zsh", ["schedule", "show", ""], in: sandbox)
        // value:description, as _describe takes them (a colon in a value would be escaped).
        #expect(zsh == [try #require(try sandbox.scheduleIDs().first).prefix(8) + ":7:00 AM on Weekdays"], "\(zsh)")
        #expect(try complete("zsh", ["favorites", "remove", ""], in: sandbox)
            == ["1:Everett-Seattle", "96:Seattle-Bellevue via 90", "4:Seattle-Everett"])
        #expect(try complete("zsh", ["refresh", "--source", ""], in: sandbox) == ["@files"])
        let fish = try complete("fish", ["watch", "add", "7"], in: sandbox)
        #expect(fish.prefix(2) == ["7\tIssaquah-Bellevue HOV", "70\tRenton-Auburn"], "\(fish)")
        #expect(try complete("fish", ["delivered", "cl"], in: sandbox) == ["clear\tDismiss the delivered alerts of one schedule, or all, where the channel can, and forget them"])
    }

    @Test func aTabNeverFailsAndReadsOnlyWhatItNeeds() throws {
        let sandbox = try sandbox()
        // An unreadable file gives no candidates for its values — and nothing on stderr, exit 0.
        let corrupt = Data("{\"version\": 1, \"schedules\": [tru".utf8)
        try Sandbox.write(sandbox.path("schedules.json"), corrupt)
        let broken = try sandbox.run(["completions", "candidates", "schedule", "show", ""])
        #expect(broken.status == 0 && broken.stdout.isEmpty && broken.stderr.isEmpty, "\(broken)")
        // Other values do not need that file.
        #expect(try sandbox.ok(["completions", "candidates", "favorites", "move", ""]).stdout.hasPrefix("1\tEverett-Seattle\n"))
        let unknown = try sandbox.run(["completions", "tcsh"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: Unknown shell 'tcsh': use bash, zsh or fish. Did you mean 'bash'? See 'traveltimes completions --help'.\n")
    }
}

@Suite(.ownThreads) struct ManualTests {
    @Test func thePageListsEveryCommandOptionAndSection() throws {
        let sandbox = Sandbox()
        let page = try sandbox.ok(["manpage"]).stdout
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "FILES", "\"EXIT STATUS\"", "EXAMPLES"] {
            #expect(page.contains("\n.SH \(section)\n"), "\(section)")
        }
        // Every command, with every option, as --help lists them.
        for name in try listedCommands(sandbox) {
            #expect(page.contains(".B \"\(name.replacingOccurrences(of: "-", with: #"\-"#))\""), "\(name)")
            let help = try sandbox.ok(name.split(separator: " ").map(String.init) + ["--help"]).stdout
            let flags = help.split(separator: "\n").filter { $0.hasPrefix("  -") }.compactMap { $0.split(separator: " ").first { $0.hasPrefix("--") } }
            try #require(!flags.isEmpty || !help.contains("Options:"), "\(name): no option read from its help:\n\(help)")
            for flag in flags {
                #expect(page.contains(String(flag).replacingOccurrences(of: "-", with: #"\-"#)), "\(name) \(flag)")
            }
        }
    }

    /// Each fact is written once, in `Reference`: every `--json` command has its shape there and
    /// every exit status its meaning, and `--help` and the page render them from there.
    @Test func everyJSONOutputAndExitStatusIsDocumentedOnce() throws {
        let withJSON = Commands.all.filter { $0.allOptions.contains { $0.name == "--json" } }.map(\.name)
        #expect(Reference.jsonShapes.map(\.command) == withJSON)
        #expect(Reference.exitStatuses.map(\.code) == ExitCode.allCases)
        let sandbox = Sandbox()
        let help = try sandbox.ok(["--help"]).stdout
        #expect(help.contains("\nExit codes: 0 ok, 1 other failure, 64 bad usage, 65 bad data, 69 unavailable, 75 try again later (man traveltimes: EXIT STATUS).\n"))
        for variable in Reference.environment { #expect(help.contains("  \(variable.name) "), "\(variable.name)") }
    }

    /// The page and `--help`, whole, against recorded copies in Tests/Support/golden
    /// (`TRAVELTIMES_RECORD_GOLDEN=1` writes them anew, for review with `git diff`).
    @Test(arguments: [("traveltimes.1", ["manpage"]), ("help.txt", ["--help"])])
    func theManualAndTheHelpAreTheRecordedOnes(file: String, arguments: [String]) throws {
        try GoldenOutputTests.check(file, try Sandbox().ok(arguments).stdout)
    }

    @Test(ExternalTool.groff.needed) func groffRendersTheManPageWithoutAWarning() throws {
        let sandbox = Sandbox()
        let page = try sandbox.ok(["manpage"]).stdout
        let path = sandbox.path("traveltimes.1")
        try FileManager.default.createDirectory(atPath: sandbox.home, withIntermediateDirectories: true)
        try Sandbox.write(path, Data(page.utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["groff", "-man", "-ww", "-Tutf8", path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let rendered = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
        // groff's output marks bold and hyphens with backspaces: compare the text alone.
        let plain = rendered.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(plain.contains("\n\(section)\n"), "\(section)")
        }
        for variable in ["TRAVELTIMES_HOME", "TRAVELTIMES_TZ", "WSDOT_ACCESS_CODE"] { #expect(plain.contains(variable)) }
        #expect(plain.range(of: #"\n {7}64 +bad +usage"#, options: .regularExpression) != nil)
    }
}
