import CommuteCore
import FoundationEssentials

extension Commands {
    static let completions = Command(
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

/// The scripts: the little each shell needs to ask `traveltimes completions candidates` and show
/// the answer. Each runs the `traveltimes` that was typed (its first word), so a copy outside PATH
/// completes too.
enum CompletionScripts {
    static func script(for shell: String) -> String {
        switch shell {
        case "zsh": zsh
        case "fish": fish
        default: bash
        }
    }

    static let bash = #"""
        # bash completion for traveltimes (from `traveltimes completions bash`)
        _traveltimes() {
            local IFS=$'\n' line
            local -a candidates
            COMPREPLY=()
            candidates=($("${COMP_WORDS[0]}" completions candidates "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
            if [[ ${candidates[0]} == "@file" ]]; then
                COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
                return 0
            fi
            for line in "${candidates[@]}"; do
                COMPREPLY+=("${line%%$'\t'*}")
            done
        }
        complete -F _traveltimes traveltimes

        """#

    static let zsh = #"""
        #compdef traveltimes
        # zsh completion for traveltimes (from `traveltimes completions zsh`)
        _traveltimes() {
            local line
            local -a lines described
            lines=("${(@f)$("${words[1]}" completions candidates "${(@)words[2,CURRENT]}" 2>/dev/null)}")
            if [[ ${lines[1]} == "@file" ]]; then
                _files
                return
            fi
            for line in "${lines[@]}"; do
                [[ -n $line ]] || continue
                described+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
            done
            _describe -t values 'traveltimes' described
        }
        if [[ $funcstack[1] == _traveltimes ]]; then
            _traveltimes "$@"
        else
            compdef _traveltimes traveltimes
        fi

        """#

    static let fish = #"""
        # fish completion for traveltimes (from `traveltimes completions fish`)
        function __traveltimes_candidates
            set -l words (commandline -opc) (commandline -ct)
            set -l lines ($words[1] completions candidates $words[2..-1] 2>/dev/null)
            if test "$lines[1]" = "@file"
                __fish_complete_path (commandline -ct)
                return
            end
            printf '%s\n' $lines
        end
        complete -c traveltimes -f -a '(__traveltimes_candidates)'

        """#
}

extension Commands {
    static let manpage = Command(
        name: "manpage",
        summary: "Print the manual page (roff), generated from the same commands as --help",
        discussion: """
            Scripts/install puts it in share/man/man1. By hand:
              traveltimes manpage > ~/.local/share/man/man1/traveltimes.1 && man traveltimes
            """
    ) { invocation in
        invocation.io.writeOut(Manual.page)
    }
}
