import Foundation
import Testing

/// A program outside the Swift toolchain and python3 that some tests drive. On a machine without
/// it, such a test is skipped and says which tool is missing and how to install it, so the
/// README's test command passes with the toolchain and python3 alone. `.ci/run` installs every
/// one and sets `TRAVELTIMES_REQUIRE_TOOLS=1`, under which nothing is skipped: a missing tool then
/// fails the tests that need it.
enum ExternalTool: String, CaseIterable {
    case zsh, fish, groff, man
    case bashCompletion = "bash-completion"
    case gnuTime = "GNU time"
    case systemdAnalyze = "systemd-analyze"

    /// Whether this machine has it.
    var isInstalled: Bool {
        switch self {
        case .bashCompletion: FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion")
        case .gnuTime: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        case .systemdAnalyze: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")
        case .zsh, .fish, .groff, .man: Self.onPath(rawValue)
        }
    }

    /// The Debian package that brings it.
    var package: String {
        switch self {
        case .bashCompletion: "bash-completion"
        case .gnuTime: "time"
        case .systemdAnalyze: "systemd"
        case .man: "man-db"
        case .zsh, .fish, .groff: rawValue
        }
    }

    /// Set by `.ci/run`: every tool must be there.
    static var required: Bool { ProcessInfo.processInfo.environment["TRAVELTIMES_REQUIRE_TOOLS"] == "1" }

    /// The trait of a test that needs this tool.
    var needed: ConditionTrait {
        .enabled(
            if: isInstalled || Self.required,
            "needs \(rawValue), which is not installed (apt-get install \(package)); .ci/run installs it")
    }

    private static func onPath(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}
