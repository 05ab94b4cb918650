/// completions/_vault: zsh completion rendered from the command table.
enum ZshCompletion {
    /// The whole script.
    static func render() -> String {
        let commands = CommandTable.visibleCommands
        // `#compdef` must be the first line for compinit to find the function.
        var script = """
            #compdef vault
            # \(GeneratedFile.notice)

            # Names read from the vault, for --group, --service and --account:
            # _arguments passes compadd's options first and the kind last; accounts
            # only of the service on the line, names only of the group on it. vault
            # reads nothing from the terminal here, so TAB never waits.
            _vault_names() {
              local kind=$argv[-1] service=${opt_args[-s]:-$opt_args[--service]} group=${opt_args[--group]}
              local -a names notes request
              request=(__complete $kind --notes)
              # opt_args holds the word as typed with its backslashes doubled: undo both.
              [[ $kind == accounts && -n $service ]] && request+=(--service ${(Q)${service//\\\\\\\\/\\\\}})
              [[ $kind != groups && -n $group ]] && request+=(--group ${(Q)${group//\\\\\\\\/\\\\}})
              names=(${(f)"$(_call_program names vault ${(q)request} 2>/dev/null </dev/null)"})
              # A line starting with a tab is no name: it says how many are locked.
              notes=(${(M)names:#$'\\t'*})
              names=(${names:#$'\\t'*})
              (( $#notes )) && _message -r "vault: ${notes[1]#$'\\t'}"
              compadd "${(@)argv[1,-2]}" -a names
            }

            _vault_commands() {
              local -a commands
              commands=(

            """
        for command in CommandTable.offeredCommands {
            script += "    \(quoted(command.name + ":" + command.summary))\n"
        }
        script += """
              )
              _describe -t commands 'vault command' commands
            }

            # The command each alias stands for.
            typeset -gA _vault_aliases
            _vault_aliases=(\(CommandTable.visibleAliases.map { "\($0.alias) \($0.name)" }.joined(separator: " ")))

            _vault() {
              local curcontext="$curcontext" state line ret=1
              local -a globals
              globals=(

            """
        script += CommandTable.visibleGlobalOptions.map { "    " + spec($0) + "\n" }.joined()
        script += """
              )
              _arguments -C $globals '1: :_vault_commands' '*:: :->command' && ret=0
              [[ $state == command ]] || return ret
              local command=${_vault_aliases[$words[1]]:-$words[1]}
              curcontext="${curcontext%:*:*}:vault-$command:"
              case $command in

            """
        for command in commands {
            let specs = command.visibleOptions.map(spec) + positionalSpecs(command)
            script += "    \(command.name))\n"
            if command.takesCommandAfterDashDash {
                // After `--`, the command to run and its arguments, as zsh completes any command line.
                script += """
                          local dashdash=${words[(i)--]}
                          if (( dashdash < CURRENT )); then
                            words=("${(@)words[dashdash+1,-1]}")
                            (( CURRENT -= dashdash ))
                            _normal && ret=0
                            return ret
                          fi

                    """
            }
            script += "      _arguments $globals"
            script += specs.map { " \\\n        " + $0 }.joined()
            script += " && ret=0\n      ;;\n"
        }
        script += """
              esac
              return ret
            }

            _vault "$@"

            """
        return script
    }

    /// One `_arguments` spec: `'(-s --service)'{-s+,--service=}'[help]:service:action'`.
    private static func spec(_ option: OptionSpec) -> String {
        let long = "--" + option.long + (option.isFlag ? "" : "=")
        let help = "[" + escapedHelp(option.help) + "]"
        let argument = option.valueName.map { ":" + message($0) + ":" + action(option.completion) } ?? ""
        guard let short = option.short else {
            return quoted((option.repeatable ? "*" : "") + long + help + argument)
        }
        let shortSpec = "-\(short)" + (option.isFlag ? "" : "+")
        let exclusion = option.repeatable ? "*" : "(-\(short) --\(option.long))"
        return quoted(exclusion) + "{" + shortSpec + "," + long + "}" + quoted(help + argument)
    }

    private static func positionalSpecs(_ command: CommandSpec) -> [String] {
        command.positionals.enumerated().map { index, positional in
            let position = positional.variadic ? "*" : String(index + 1)
            let separator = positional.optional ? "::" : ":"
            return quoted(position + separator + message(positional.name) + ":" + action(positional.completion))
        }
    }

    private static func action(_ completion: CompletionKind) -> String {
        switch completion {
        case .none: " "
        case .file: "_files"
        case .directory: "_files -/"
        case .values(let words): "(" + words.joined(separator: " ") + ")"
        case .group: "_vault_names groups"
        case .service: "_vault_names services"
        case .account: "_vault_names accounts"
        case .item: "_vault_names items"
        case .command: "_vault_commands"
        }
    }

    /// A value name as an `_arguments` message: lowercase, colons escaped.
    private static func message(_ valueName: String) -> String {
        valueName.lowercased().replacingEvery(":", with: "\\:")
    }

    /// Help inside `[...]`: brackets and backslashes escaped.
    private static func escapedHelp(_ help: String) -> String {
        help.replacingEvery("\\", with: "\\\\").replacingEvery("[", with: "\\[").replacingEvery("]", with: "\\]")
    }

    /// `text` in single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: "'\\''") + "'"
    }
}
