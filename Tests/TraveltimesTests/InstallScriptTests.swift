import CommuteCore
import Foundation
import Testing

/// `Scripts/install`, run for real on a copy of the package (its own release build: the one this
/// test runs under holds .build), then the installed files used as each tool finds them: `man` from
/// PATH, bash-completion's loader, zsh's compinit, fish's vendor directory.
@Suite struct InstallScriptTests {
    static let installed = [
        "bin/traveltimes", "bin/traveltimes-fetch", "share/man/man1/traveltimes.1",
        "share/bash-completion/completions/traveltimes", "share/zsh/site-functions/_traveltimes",
        "share/fish/vendor_completions.d/traveltimes.fish",
    ]

    @Test func installsWhereEachToolLooksAndUninstallsExactlyThat() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("install-script-\(UUID().uuidString)").path
        let source = work + "/src"
        let prefix = work + "/prefix with space"
        let home = work + "/home"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let copy = try execute(
            ["cp", "-a"] + ["Package.swift", "Sources", "Tests", "Fixtures", "Scripts"].map { Paths.root.appendingPathComponent($0).path } + [source],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(copy.status == 0, "\(copy)")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let environment = ["PATH": path, "HOME": home]

        let install = try execute([source + "/Scripts/install", "--prefix", prefix], environment: environment, in: home)
        #expect(install.status == 0, "\(install)")
        #expect(install.stdout == """
            Installed:
            \(Self.installed.map { "  \(prefix)/\($0)\n" }.joined())\
            \(prefix)/bin is not on your PATH: add it (export PATH="\(prefix)/bin:$PATH") to run plain `traveltimes`.
            zsh finds the completions once \(prefix)/share/zsh/site-functions is on fpath, before compinit.
            Next: \(prefix)/bin/traveltimes demo, then \(prefix)/bin/traveltimes install systemd --enable (or install cron), and \(prefix)/bin/traveltimes doctor.

            """)
        for file in Self.installed {
            let mode = try FileManager.default.attributesOfItem(atPath: "\(prefix)/\(file)")[.posixPermissions] as? Int
            #expect(mode == (file.hasPrefix("bin/") ? 0o755 : 0o644), "\(file)")
        }

        // The installed binary, on PATH, from anywhere: its own sample feed, its own helper.
        let user = ["PATH": "\(prefix)/bin:/usr/bin:/bin", "HOME": home, "TRAVELTIMES_HOME": home + "/store"]
        let demo = try execute(["traveltimes", "demo"], environment: user)
        #expect(demo.status == 0 && demo.stdout.contains("Refreshed 163 routes"), "\(demo)")
        #expect(try execute(["traveltimes-fetch", "--check"], environment: user).stdout == "traveltimes-fetch: ready\n")
        #expect(try execute(["traveltimes", "config", "show", "--json"], environment: user).stdout.contains("\"graceSeconds\" : 600"))
        // man finds the page from PATH; it is the page the binary prints.
        let man = try execute(["man", "-w", "traveltimes"], environment: user)
        #expect(man.stdout == "\(prefix)/share/man/man1/traveltimes.1\n", "\(man)")
        #expect(try String(contentsOfFile: "\(prefix)/share/man/man1/traveltimes.1", encoding: .utf8)
            == (try execute(["traveltimes", "manpage"], environment: user)).stdout)
        // Each shell loads the completions from where it looks, and completes with them.
        // (Through a link without the space: bash-completion splits its user directory on spaces.)
        try FileManager.default.createSymbolicLink(atPath: work + "/share", withDestinationPath: prefix + "/share")
        var shells = user
        shells["XDG_DATA_HOME"] = work + "/share"
        let bash = try execute(["bash", "-c", """
            source /usr/share/bash-completion/bash_completion
            __load_completion traveltimes && COMP_WORDS=(traveltimes stat) && COMP_CWORD=1 && _traveltimes && echo "${COMPREPLY[@]}"
            """], environment: shells)
        #expect(bash.stdout == "status\n", "\(bash)")
        let zsh = try execute(["zsh", "-f", "-c", """
            fpath=('\(prefix)/share/zsh/site-functions' $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[traveltimes]
            """], environment: shells)
        #expect(zsh.stdout == "_traveltimes\n", "\(zsh)")
        let fish = try execute(["fish", "-c", "complete -C 'traveltimes stat'"], environment: shells)
        #expect(fish.stdout.hasPrefix("status\t"), "\(fish)")

        // Again: the same files.
        let before = try Self.installed.map { try Data(contentsOf: URL(fileURLWithPath: "\(prefix)/\($0)")) }
        #expect(try execute([source + "/Scripts/install", "--prefix", prefix], environment: environment, in: home).status == 0)
        #expect(try Self.installed.map { try Data(contentsOf: URL(fileURLWithPath: "\(prefix)/\($0)")) } == before)

        // Uninstall removes those files, and nothing else under the prefix.
        try Sandbox.write(prefix + "/bin/mine", Data("keep".utf8))
        let uninstall = try execute([source + "/Scripts/install", "--prefix", prefix, "--uninstall"], environment: environment, in: home)
        #expect(uninstall.status == 0 && uninstall.stdout == Self.installed.map { "Removed \(prefix)/\($0)\n" }.joined(), "\(uninstall)")
        #expect(Self.installed.allSatisfy { !FileManager.default.fileExists(atPath: "\(prefix)/\($0)") })
        #expect(FileManager.default.fileExists(atPath: prefix + "/bin/mine"))
        #expect(try execute([source + "/Scripts/install", "--prefix", prefix, "--uninstall"], environment: environment, in: home).stdout
            == "Nothing of traveltimes' under \(prefix): nothing to remove.\n")
        let bad = try execute([source + "/Scripts/install", "--prefx", prefix], environment: environment, in: home)
        #expect(bad.status == 64 && bad.stderr == "Scripts/install: unknown argument '--prefx'\nusage: Scripts/install [--prefix DIR] [--uninstall]\n")
    }
}
