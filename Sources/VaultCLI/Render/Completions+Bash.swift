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

            _vault_commands="\(CommandTable.offeredCommands.map(\.name).joined(separator: " "))"
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

            """
        // The functions below are the same for every table: a raw string, written as bash reads it.
        script += #"""

            # Sets _vault_word to the word $1 as typed less its quoting (what a name
            # starts with), and _vault_quote to the quote left open at its end, if any.
            _vault_dequote() {
                local word="$1" c i
                _vault_word="" _vault_quote=""
                for ((i = 0; i < ${#word}; i++)); do
                    c="${word:i:1}"
                    if [[ "$_vault_quote" == "'" ]]; then
                        if [[ "$c" == "'" ]]; then _vault_quote=""; else _vault_word+="$c"; fi
                    elif [[ "$c" == '\' ]]; then
                        i=$((i + 1))
                        c="${word:i:1}"
                        # Inside double quotes a backslash quotes only $ ` " and \.
                        [[ "$_vault_quote" == '"' && "$c" != ['$`"\'] ]] && _vault_word+='\'
                        _vault_word+="$c"
                    elif [[ -n "$_vault_quote" && "$c" == "$_vault_quote" ]]; then
                        _vault_quote=""
                    elif [[ -z "$_vault_quote" && ( "$c" == "'" || "$c" == '"' ) ]]; then
                        _vault_quote="$c"
                    else
                        _vault_word+="$c"
                    fi
                done
            }

            # The word $1 as typed, less its quoting.
            _vault_unquoted() {
                local _vault_word _vault_quote
                _vault_dequote "$1"
                printf '%s\n' "$_vault_word"
            }

            # Sets _vault_words and _vault_cword to COMP_WORDS and COMP_CWORD with the
            # words bash split at ':' (COMP_WORDBREAKS) joined again as typed, so that
            # git:https://github.com is one name; _vault_index[i] is the COMP_WORDS index
            # where _vault_words[i] starts.
            _vault_join_words() {
                local line="${COMP_LINE:0:COMP_POINT}" rest trimmed word i offset=0
                _vault_words=() _vault_index=() _vault_cword=0
                for ((i = 0; i <= COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]-}"
                    rest="${line:offset}"
                    trimmed="${rest#"${rest%%[![:space:]]*}"}"
                    offset=$((offset + ${#rest} - ${#trimmed} + ${#word}))
                    if ((i > 0 && ${#rest} == ${#trimmed})) && [[ "$word" == :* || "${_vault_words[-1]}" == *: ]]; then
                        _vault_words[-1]+="$word"
                    else
                        _vault_words+=("$word")
                        _vault_index+=("$i")
                    fi
                done
                _vault_cword=$((${#_vault_words[@]} - 1))
            }

            # $1 quoted for the shell as the word being completed has it: inside the
            # quote it opened (bash closes it), else with backslashes.
            _vault_quoted() {
                local name="" c i
                case "$_vault_quote" in
                    "'")
                        local quote="'\''"
                        printf '%s\n' "${1//\'/$quote}" ;;
                    '"')
                        for ((i = 0; i < ${#1}; i++)); do
                            c="${1:i:1}"
                            [[ "$c" == ['$`"\'] ]] && name+='\'
                            name+="$c"
                        done
                        printf '%s\n' "$name" ;;
                    *) printf '%q\n' "$1" ;;
                esac
            }

            # Sets COMPREPLY to the names of kind $1 that start with $2, each
            # quoted for the shell; accounts only of the service on the line.
            # vault reads nothing from the terminal here, so TAB never waits.
            _vault_complete_names() {
                local name _vault_word _vault_quote
                _vault_dequote "$2"
                local -a arguments=("${_vault_globals[@]}" __complete "$1")
                [[ "$1" == accounts && -n "$_vault_service" ]] && arguments+=(--service "$_vault_service")
                [[ "$1" != groups && -n "$_vault_group" ]] && arguments+=(--group "$_vault_group")
                COMPREPLY=()
                while IFS= read -r name; do
                    [[ "$name" == "$_vault_word"* ]] && COMPREPLY+=("$(_vault_quoted "$name")")
                done < <(vault "${arguments[@]}" 2>/dev/null </dev/null)
                # bash replaces only what follows the last ':' of an unquoted word.
                if [[ -z "$_vault_quote" && "$2" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
                    local colon="${2%"${2##*:}"}"
                    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]#"$colon"}"; done
                fi
            }

            # Sets COMPREPLY to the completions of $2 as kind $1; $3 prefixes each.
            _vault_complete_kind() {
                local kind="${1%% *}" words="${1#* }" IFS=$'\n'
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

            # Completes the line from COMP_WORDS[$1] on as that command's own line:
            # bash-completion's _command_offset when it is loaded, else the command's
            # completion function (complete -F), else command names, then files.
            _vault_complete_command() {
                if declare -F _command_offset >/dev/null; then
                    _command_offset "$1"
                    return
                fi
                local offset="$1" prefix="" i spec
                for ((i = 0; i < offset; i++)); do prefix+="${COMP_WORDS[i]} "; done
                COMP_WORDS=("${COMP_WORDS[@]:offset}")
                COMP_CWORD=$((COMP_CWORD - offset))
                COMP_LINE="${COMP_LINE#"$prefix"}"
                COMP_POINT=${#COMP_LINE}
                local cur="${COMP_WORDS[COMP_CWORD]}"
                if ((COMP_CWORD == 0)); then
                    mapfile -t COMPREPLY < <(compgen -c -- "$cur")
                elif spec=$(complete -p -- "${COMP_WORDS[0]}" 2>/dev/null) && [[ "$spec" =~ \ -F\ ([^ ]+) ]]; then
                    "${BASH_REMATCH[1]}" "${COMP_WORDS[0]}" "$cur" "${COMP_WORDS[COMP_CWORD-1]}"
                else
                    compopt -o filenames 2>/dev/null
                    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                fi
            }

            _vault() {
                local _vault_words _vault_index _vault_cword
                _vault_join_words
                local cur="${_vault_words[_vault_cword]}" prev="${_vault_words[_vault_cword-1]-}"
                local command="" word kind i positionals=0 ended="" _vault_service="" _vault_group=""
                # Global options given so far, passed on to `vault __complete`.
                local -a _vault_globals=()
                # Find the command, skipping options and their values; bash splits
                # --class=a into "--class" "=" "a".
                for ((i = 1; i < _vault_cword; i++)); do
                    word="${_vault_words[i]}"
                    if [[ -n "$ended" || "$word" != -* || "$word" == - ]]; then
                        if [[ -z "$command" ]]; then command="$(_vault_command_name "$word")"; else positionals=$((positionals + 1)); fi
                    elif [[ "$word" == -- ]]; then
                        ended=$i
                    elif [[ "$word" == --*=* ]]; then
                        _vault_value_kind "" "${word%%=*}" >/dev/null && _vault_globals+=("${word%%=*}=$(_vault_unquoted "${word#*=}")")
                        [[ "$word" == --service=* ]] && _vault_service="$(_vault_unquoted "${word#*=}")"
                        [[ "$word" == --group=* ]] && _vault_group="$(_vault_unquoted "${word#*=}")"
                    elif _vault_value_kind "$command" "$word" >/dev/null; then
                        [[ "${_vault_words[i+1]-}" == = ]] && i=$((i + 1))
                        i=$((i + 1))
                        _vault_value_kind "" "$word" >/dev/null && _vault_globals+=("$word" "$(_vault_unquoted "${_vault_words[i]-}")")
                        [[ "$word" == -s || "$word" == --service ]] && _vault_service="$(_vault_unquoted "${_vault_words[i]-}")"
                        [[ "$word" == --group ]] && _vault_group="$(_vault_unquoted "${_vault_words[i]-}")"
                    fi
                done
                # After `vault run --`: the command to run, completed as that command.
                if [[ -n "$ended" && " $_vault_runners " == *" $command "* ]]; then
                    _vault_complete_command $((_vault_index[ended] + 1))
                    return
                fi
                if [[ -z "$ended" ]]; then
                    if [[ "$cur" == = ]] && kind=$(_vault_value_kind "$command" "$prev"); then
                        _vault_complete_kind "$kind" ""; return
                    elif [[ "$prev" == = ]] && kind=$(_vault_value_kind "$command" "${_vault_words[_vault_cword-2]-}"); then
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

            """#
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
        case .item: "names items"
        case .command: "commands"
        }
    }
}
