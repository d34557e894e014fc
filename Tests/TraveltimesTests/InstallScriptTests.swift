@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// `Scripts/install`, run for real with the binary under test (`--binary`: its own release build
/// is `.ci/run`'s to check, with the static runtime and the 25 MiB bound, as a full build would
/// take this suite past five minutes on two cores); then the installed layout used as each tool
/// finds it: `man` from PATH, bash-completion's loader, zsh's compinit, fish's vendor directory
/// (each skipped, saying so, where the tool is missing).
@Suite(.ownThreads) struct InstallScriptTests {
    static let installed = [
        "bin/traveltimes", "share/man/man1/traveltimes.1",
        "share/bash-completion/completions/traveltimes", "share/zsh/site-functions/_traveltimes",
        "share/fish/vendor_completions.d/traveltimes.fish",
    ]

    @Test func installsWhereEachToolLooksAndUninstallsExactlyThat() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("install-script-\(UUID().uuidString)").path
        let script = Paths.root.appendingPathComponent("Scripts/install").path
        let prefix = work + "/prefix with space"
        let home = work + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let environment = ["PATH": path, "HOME": home]

        // 0.3's separate fetch helper, left from an earlier install: removed, and said.
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try Sandbox.write(prefix + "/bin/traveltimes-fetch", Data("#!/bin/sh\n".utf8))
        let install = try execute([script, "--prefix", prefix, "--binary", Paths.binary], environment: environment, in: home)
        #expect(install.status == 0, "\(install)")
        // The binary under test is a debug build on the toolchain's libraries: said, once.
        #expect(install.stderr == """
            Scripts/install: note: \(Paths.binary) uses the toolchain's Swift libraries: it stops running if the toolchain moves \
            (Scripts/install without --binary builds one that does not).

            """)
        #expect(install.stdout == """
            Installed:
            \(Self.installed.map { "  \(prefix)/\($0)\n" }.joined())\
            Removed \(prefix)/bin/traveltimes-fetch (an earlier version's; not needed any more)
            \
            \(prefix)/bin is not on your PATH: add it (export PATH="\(prefix)/bin:$PATH") to run plain `traveltimes`.
            zsh finds the completions once \(prefix)/share/zsh/site-functions is on fpath, before compinit.
            Next: \(prefix)/bin/traveltimes demo, then \(prefix)/bin/traveltimes install systemd --enable (or install cron), and \(prefix)/bin/traveltimes doctor.

            """)
        for file in Self.installed {
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(prefix)/\(file)")
            let mode: Int = file.hasPrefix("bin/") ? 0o755 : 0o644
            #expect(attributes[.posixPermissions] as? Int == mode, "\(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/traveltimes-fetch"))

        // The installed binary, on PATH, from anywhere: its own sample feed, itself its own helper.
        let user = ["PATH": "\(prefix)/bin:/usr/bin:/bin", "HOME": home, "TRAVELTIMES_HOME": home + "/store", "TRAVELTIMES_TZ": "UTC"]
        let demo = try execute(["traveltimes", "demo"], environment: user)
        #expect(demo.status == 0 && demo.stdout.contains("Refreshed 163 routes"), "\(demo)")
        #expect(try execute(["traveltimes", "fetch-helper", "--check"], environment: user).stdout == "traveltimes fetch-helper: ready\n")
        #expect(try execute(["traveltimes", "config", "show", "--json"], environment: user).stdout == """
            {\u{A}  "accessCode" : null,\u{A}  "accessCodeFrom" : null,\u{A}  "alertLifetimeMinutes" : 120,\u{A}  "budgets" : {\u{A}    "google" : 160,\u{A}    "here" : 1000,\u{A}    "osrm" : 100,\u{A}    "tomtom" : 2500,\u{A}    "transitous" : 200,\u{A}    "valhalla" : 100\u{A}  },\u{A}  "contact" : null,\u{A}  "dailyCap" : 20,\u{A}  "followThresholdMinutes" : 5,\u{A}  "freeFlowMargin" : 1.25,\u{A}  "geocoderURL" : "https://nominatim.openstreetmap.org",\u{A}  "graceSeconds" : 600,\u{A}  "healthNotify" : null,\u{A}  "historyDays" : 400,\u{A}  "leadMinutes" : 60,\u{A}  "minIntervalMinutes" : 10,\u{A}  "notifiers" : [],\u{A}  "osrmURL" : "https://router.project-osrm.org",\u{A}  "planRequests" : true,\u{A}  "providerKeys" : {\u{A}    "google" : null,\u{A}    "here" : null,\u{A}    "tomtom" : null\u{A}  },\u{A}  "providerKeysFrom" : {\u{A}    "google" : null,\u{A}    "here" : null,\u{A}    "tomtom" : null\u{A}  },\u{A}  "providerURLs" : {\u{A}    "google" : "https://routes.googleapis.com",\u{A}    "here" : "https://router.hereapi.com",\u{A}    "tomtom" : "https://api.tomtom.com"\u{A}  },\u{A}  "quietHours" : null,\u{A}  "source" : null,\u{A}  "staleAfterMinutes" : 60,\u{A}  "timezone" : null,\u{A}  "transitousURL" : "https://api.transitous.org",\u{A}  "typicalWeeks" : 8,\u{A}  "units" : "km",\u{A}  "valhallaURL" : "https://valhalla1.openstreetmap.de",\u{A}  "watches" : []\u{A}}\u{A}
            """)
        // The page and the completions are the ones the binary prints; where each tool finds them
        // from there is tested below, one tool at a time.
        let commands: [[String]] = [["manpage"], ["completions", "bash"], ["completions", "zsh"], ["completions", "fish"]]
        let generated: [String] = try commands.map { (command: [String]) -> String in
            try execute(["traveltimes"] + command, environment: user).stdout
        }
        for (file, text) in zip(Self.installed.dropFirst(1), generated) {
            let installedText = try String(contentsOfFile: "\(prefix)/\(file)", encoding: .utf8)
            let firstDifference = zip(installedText.split(separator: "\n"), text.split(separator: "\n")).first { $0 != $1 }
            #expect(installedText == text, "\(file): \(firstDifference.map { "installed \($0.0), printed \($0.1)" } ?? "one is longer")")
        }

        // Again: the same files.
        let before = try Self.installed.map { try Data(contentsOf: URL(fileURLWithPath: "\(prefix)/\($0)")) }
        #expect(try execute([script, "--prefix", prefix, "--binary", Paths.binary], environment: environment, in: home).status == 0)
        #expect(try Self.installed.map { try Data(contentsOf: URL(fileURLWithPath: "\(prefix)/\($0)")) } == before)

        // Uninstall removes those files, and nothing else under the prefix.
        try Sandbox.write(prefix + "/bin/mine", Data("keep".utf8))
        let uninstall = try execute([script, "--prefix", prefix, "--uninstall"], environment: environment, in: home)
        // The directories it made go too, once empty; bin holds another file and stays.
        let directories = [
            "share/man/man1", "share/man", "share/bash-completion/completions", "share/bash-completion", "share/zsh/site-functions",
            "share/zsh", "share/fish/vendor_completions.d", "share/fish", "share",
        ]
        #expect(
            uninstall.status == 0
                && uninstall.stdout == Self.installed.map { "Removed \(prefix)/\($0)\n" }.joined() + directories.map { "Removed \(prefix)/\($0)/\n" }.joined(),
            "\(uninstall)")
        #expect(Self.installed.allSatisfy { !FileManager.default.fileExists(atPath: "\(prefix)/\($0)") })
        #expect(FileManager.default.fileExists(atPath: prefix + "/bin/mine"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix) == ["bin"])
        #expect(try execute([script, "--prefix", prefix, "--uninstall"], environment: environment, in: home).stdout
            == "Nothing of traveltimes' under \(prefix): nothing to remove.\n")
        let bad = try execute([script, "--prefx", prefix], environment: environment, in: home)
        #expect(bad.status == 64 && bad.stderr == "Scripts/install: unknown argument '--prefx'\nusage: Scripts/install [--prefix DIR] [--binary FILE] [--uninstall]\n")
        let missing = try execute([script, "--prefix", prefix, "--binary", work + "/nothing"], environment: environment, in: home)
        #expect(missing.status == 66 && missing.stderr == "Scripts/install: --binary \(work)/nothing is not an executable file\n")
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/traveltimes"))
    }

    /// A prefix laid out as `Scripts/install` lays it out (the test above holds the layout and the
    /// contents), with the files this build prints: what each tool is then given to find.
    final class Prefix: @unchecked Sendable {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("install-layout-\(UUID().uuidString)").path
        var prefix: String { work + "/prefix" }
        var user: [String: String] {
            [
                "PATH": "\(prefix)/bin:/usr/bin:/bin", "HOME": work + "/home", "TRAVELTIMES_HOME": work + "/store",
                "XDG_DATA_HOME": prefix + "/share",
            ]
        }

        init() throws {
            let sandbox = Sandbox()
            try FileManager.default.createDirectory(atPath: work + "/home", withIntermediateDirectories: true)
            for (file, command) in zip(InstallScriptTests.installed, [nil, "manpage", "completions bash", "completions zsh", "completions fish"]) {
                let path = "\(prefix)/\(file)"
                try FileManager.default.createDirectory(
                    atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
                if let command {
                    try Sandbox.write(path, Data(try sandbox.ok(command.split(separator: " ").map(String.init)).stdout.utf8))
                } else {
                    let built = URL(fileURLWithPath: Paths.binary).deletingLastPathComponent().appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent)
                    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: built.path)
                }
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: work) }
    }

    @Test(ExternalTool.man.needed) func manFindsThePageFromPath() throws {
        let layout = try Prefix()
        let man = try execute(["man", "-w", "traveltimes"], environment: layout.user)
        #expect(man.stdout == "\(layout.prefix)/share/man/man1/traveltimes.1\n", "\(man)")
    }

    @Test(ExternalTool.bashCompletion.needed) func bashCompletionLoadsTheCompletions() throws {
        let layout = try Prefix()
        let bash = try execute(["bash", "-c", """
            source /usr/share/bash-completion/bash_completion
            __load_completion traveltimes && COMP_WORDS=(traveltimes stat) && COMP_CWORD=1 && _traveltimes && echo "${COMPREPLY[@]}"
            """], environment: layout.user)
        #expect(bash.stdout == "status\n", "\(bash)")
    }

    @Test(ExternalTool.zsh.needed) func zshCompinitFindsTheCompletions() throws {
        let layout = try Prefix()
        let zsh = try execute(["zsh", "-f", "-c", """
            fpath=('\(layout.prefix)/share/zsh/site-functions' $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[traveltimes]
            """], environment: layout.user)
        #expect(zsh.stdout == "_traveltimes\n", "\(zsh)")
    }

    @Test(ExternalTool.fish.needed) func fishLoadsTheCompletionsFromItsVendorDirectory() throws {
        let layout = try Prefix()
        let fish = try execute(["fish", "-c", "complete -C 'traveltimes stat'"], environment: layout.user)
        #expect(fish.stdout.hasPrefix("status\t"), "\(fish)")
    }
}
