import CommuteCore
import FoundationEssentials

extension Commands {
    enum CompletionsCommand {
        static let command = Command(
            name: "completions",
            summary: "Print the bash, zsh or fish completion script",
            arguments: "bash|zsh|fish | candidates WORD...",
            positionals: 1...Int.max,
            argumentValues: [.words(["bash", "zsh", "fish"])],
            discussion: """
                The script completes commands, subcommands, options, and values from the store: route
                IDs, schedule IDs, notifier numbers, group names, presets and day words. At each TAB it
                runs `traveltimes completions candidates WORD...` with the words typed so far, which
                answers from the same command table as --help and reads config.json and the file it needs.
                Scripts/install puts them where each shell looks. By hand:
                  traveltimes completions bash > ~/.local/share/bash-completion/completions/traveltimes
                  traveltimes completions zsh > ~/.local/share/zsh/site-functions/_traveltimes
                  traveltimes completions fish > ~/.config/fish/completions/traveltimes.fish
                """,
            verbatimArguments: true
        ) { invocation in
            let words = invocation.arguments.positionals
            switch words[0] {
            case "candidates":
                let lines = Completion.candidates(for: Array(words.dropFirst()), commute: { try invocation.commute(unreadableConfiguration: .readsAsDefaults) })
                if !lines.isEmpty { invocation.io.writeOut(lines.joined(separator: "\n") + "\n") }
            case let shell where words.count == 1 && ["bash", "zsh", "fish"].contains(shell):
                invocation.io.writeOut(CompletionScripts.script(for: shell))
            default:
                var message = "Unknown shell '\(words[0])': use bash, zsh or fish."
                if let suggestion = Suggestions.closest(to: words[0], in: ["bash", "zsh", "fish"]) { message += " Did you mean '\(suggestion)'?" }
                throw invocation.usage(message)
            }
        }
    }
}
