import CommuteCore
import FoundationEssentials


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

