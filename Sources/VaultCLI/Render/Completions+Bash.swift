/// completions/vault.bash: bash completion rendered from the command table.
/// It needs bash 4 and nothing of the bash-completion package.
enum BashCompletion {
    /// The whole script.
    static func render() -> String {
        let commands = CommandTable.visibleCommands
        let globals = CommandTable.visibleGlobalOptions
        var script = """
            # \(GeneratedFile.notice)
            # bash completion for vault: source this file, or install it as vault in
            # the completions directory of bash-completion.

            _vault_commands="\(commands.map(\.name).joined(separator: " "))"
            # Commands that run another command after --.
            _vault_runners="\(commands.filter(\.takesCommandAfterDashDash).map(\.name).joined(separator: " "))"

            # The command that $1 names: the command an alias stands for, or $1 itself.
            _vault_command_name() {
                case "$1" in

            """
        for (alias, name) in CommandTable.visibleAliases {
            script += "        \(alias)) echo \(name) ;;\n"
        }
        script += """
                    *) printf '%s\\n' "$1" ;;
                esac
            }

            # The options of command $1 (none: before the command), global ones included.
            _vault_options() {
                case "$1" in

            """
        for command in commands {
            script += "        \(command.name)) echo \"\(spellings(command.visibleOptions + globals))\" ;;\n"
        }
        script += """
                    *) echo "\(spellings(globals))" ;;
                esac
            }

            # How the value of option $2 of command $1 completes: "file", "directory",
            # "none", "names KIND" or "words WORD...". Fails for an option that takes no value.
            _vault_value_kind() {
                case "$1 $2" in

            """
        for option in globals where !option.isFlag {
            script += "        \(patterns(option, command: "*"))) echo \"\(kind(option.completion))\" ;;\n"
        }
        for command in commands {
            for option in command.visibleOptions where !option.isFlag {
                script += "        \(patterns(option, command: command.name))) echo \"\(kind(option.completion))\" ;;\n"
            }
        }
        script += """
                    *) return 1 ;;
                esac
            }

            # How positional argument $2 (from 0) of command $1 completes.
            _vault_positional_kind() {
                case "$1 $2" in

            """
        for command in commands {
            for (index, positional) in command.positionals.enumerated() {
                let position = positional.variadic ? "*" : String(index)
                script += "        \"\(command.name) \"\(position)) echo \"\(kind(positional.completion))\" ;;\n"
            }
        }
        script += """
                    *) echo none ;;
                esac
            }

            # The word $1 as typed, less backslashes and an opening quote: what a name starts with.
            _vault_unquoted() {
                local word="${1//\\\\/}"
                word=${word#\\\"}
                word=${word#\\\'}
                printf '%s\\n' "$word"
            }

            # Sets COMPREPLY to the names of kind $1 that start with $2, each
            # quoted for the shell; accounts only of the service on the line.
            # vault reads nothing from the terminal here, so TAB never waits.
            _vault_complete_names() {
                local name prefix
                prefix="$(_vault_unquoted "$2")"
                local -a arguments=("${_vault_globals[@]}" __complete "$1")
                [[ "$1" == accounts && -n "$_vault_service" ]] && arguments+=(--service "$_vault_service")
                COMPREPLY=()
                while IFS= read -r name; do
                    [[ "$name" == "$prefix"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
                done < <(vault "${arguments[@]}" 2>/dev/null </dev/null)
            }

            # Sets COMPREPLY to the completions of $2 as kind $1; $3 prefixes each.
            _vault_complete_kind() {
                local kind="${1%% *}" words="${1#* }" IFS=$'\\n'
                case "$kind" in
                    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$2") ;;
                    directory) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$2") ;;
                    names) _vault_complete_names "$words" "$2" ;;
                    commands) IFS=' '; mapfile -t COMPREPLY < <(compgen -W "$_vault_commands" -- "$2") ;;
                    words) IFS=' '; mapfile -t COMPREPLY < <(compgen -W "$words" -- "$2") ;;
                    *) COMPREPLY=() ;;
                esac
                COMPREPLY=("${COMPREPLY[@]/#/${3-}}")
            }

            _vault() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]-}"
                local command="" word kind i positionals=0 ended="" _vault_service=""
                # Global options given so far, passed on to `vault __complete`.
                local -a _vault_globals=()
                # Find the command, skipping options and their values; bash splits
                # --class=a into "--class" "=" "a".
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    if [[ -n "$ended" || "$word" != -* || "$word" == - ]]; then
                        if [[ -z "$command" ]]; then command="$(_vault_command_name "$word")"; else positionals=$((positionals + 1)); fi
                    elif [[ "$word" == -- ]]; then
                        ended=$i
                    elif [[ "$word" == --*=* ]]; then
                        _vault_value_kind "" "${word%%=*}" >/dev/null && _vault_globals+=("$word")
                        [[ "$word" == --service=* ]] && _vault_service="$(_vault_unquoted "${word#*=}")"
                    elif _vault_value_kind "$command" "$word" >/dev/null; then
                        [[ "${COMP_WORDS[i+1]-}" == = ]] && i=$((i + 1))
                        i=$((i + 1))
                        _vault_value_kind "" "$word" >/dev/null && _vault_globals+=("$word" "${COMP_WORDS[i]-}")
                        [[ "$word" == -s || "$word" == --service ]] && _vault_service="$(_vault_unquoted "${COMP_WORDS[i]-}")"
                    fi
                done
                # After `vault run --`: a command, then its files.
                if [[ -n "$ended" && " $_vault_runners " == *" $command "* ]]; then
                    if ((COMP_CWORD == ended + 1)); then
                        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
                    else
                        compopt -o filenames 2>/dev/null
                        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                    fi
                    return
                fi
                if [[ -z "$ended" ]]; then
                    if [[ "$cur" == = ]] && kind=$(_vault_value_kind "$command" "$prev"); then
                        _vault_complete_kind "$kind" ""; return
                    elif [[ "$prev" == = ]] && kind=$(_vault_value_kind "$command" "${COMP_WORDS[COMP_CWORD-2]-}"); then
                        _vault_complete_kind "$kind" "$cur"; return
                    elif [[ "$cur" == --*=* ]] && kind=$(_vault_value_kind "$command" "${cur%%=*}"); then
                        _vault_complete_kind "$kind" "${cur#*=}" "${cur%%=*}="; return
                    elif [[ "$prev" == -* ]] && kind=$(_vault_value_kind "$command" "$prev"); then
                        _vault_complete_kind "$kind" "$cur"; return
                    elif [[ "$cur" == -* ]]; then
                        _vault_complete_kind "words $(_vault_options "$command")" "$cur"; return
                    fi
                fi
                if [[ -z "$command" ]]; then
                    _vault_complete_kind commands "$cur"
                else
                    _vault_complete_kind "$(_vault_positional_kind "$command" "$positionals")" "$cur"
                fi
            }

            complete -F _vault vault

            """
        return script
    }

    /// `-s --service`, for every option.
    private static func spellings(_ options: [OptionSpec]) -> String {
        options.flatMap { option in (option.short.map { ["-\($0)"] } ?? []) + ["--" + option.long] }
            .joined(separator: " ")
    }

    /// `"add -s"|"add --service"`, or `*" --vault"` for a global option.
    private static func patterns(_ option: OptionSpec, command: String) -> String {
        let prefix = command == "*" ? "*\"" : "\"\(command)"
        let names = (option.short.map { ["-\($0)"] } ?? []) + ["--" + option.long]
        return names.map { prefix + " " + $0 + "\"" }.joined(separator: "|")
    }

    private static func kind(_ completion: CompletionKind) -> String {
        switch completion {
        case .none: "none"
        case .file: "file"
        case .directory: "directory"
        case .values(let words): "words " + words.joined(separator: " ")
        case .group: "names groups"
        case .service: "names services"
        case .account: "names accounts"
        case .command: "commands"
        }
    }
}
