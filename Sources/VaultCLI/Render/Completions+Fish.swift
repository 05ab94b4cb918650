/// completions/vault.fish: fish completion rendered from the command table.
enum FishCompletion {
    /// The whole script.
    static func render() -> String {
        let globalsWithValues = CommandTable.visibleGlobalOptions.filter { !$0.isFlag }.map { "--" + $0.long }
        var script = """
            # \(GeneratedFile.notice)

            # The command on the line: the first word that is not an option or the
            # value of a global option.
            function __vault_command
                set -l words (commandline -opc)
                set -e words[1]
                while set -q words[1]
                    if contains -- $words[1] \(globalsWithValues.joined(separator: " "))
                        set -e words[1]
                    else if not string match -q -- '-*' $words[1]
                        __vault_command_name $words[1]
                        return 0
                    end
                    set -e words[1]
                end
                return 1
            end

            # The command that $argv[1] names: the command an alias stands for, or itself.
            function __vault_command_name
                switch $argv[1]

            """
        for (alias, name) in CommandTable.visibleAliases {
            script += "        case \(alias)\n            echo \(name)\n"
        }
        script += """
                    case '*'
                        echo $argv[1]
                end
            end

            function __vault_using
                set -l command (__vault_command)
                and test "$command" = $argv[1]
            end

            function __vault_no_command
                not __vault_command >/dev/null
            end

            # The value given on the line to option $argv[1] (or its short form $argv[2]), if any.
            function __vault_option_value
                set -l words (commandline -opc)
                for i in (seq (count $words))
                    if contains -- $words[$i] $argv
                        set -l next (math $i + 1)
                        if set -q words[$next]
                            echo $words[$next]
                            return 0
                        end
                    else if string match -q -- "$argv[1]=*" $words[$i]
                        string replace -- "$argv[1]=" '' $words[$i]
                        return 0
                    end
                end
                return 1
            end

            # Names read from the vault, for --group, --service and --account;
            # accounts only of the service on the line, names only of the group on
            # it. vault reads nothing from the terminal here, so TAB never waits.
            function __vault_names
                set -l request __complete $argv[1]
                if test "$argv[1]" = accounts; and set -l service (__vault_option_value --service -s)
                    set request $request --service $service
                end
                if test "$argv[1]" != groups; and set -l group (__vault_option_value --group)
                    set request $request --group $group
                end
                vault $request 2>/dev/null </dev/null
            end

            # Whether the line has `--`: what follows is a command to run.
            function __vault_after_dashdash
                contains -- -- (commandline -opc)
            end

            # The completions of the command line after `--`, as fish completes any command.
            function __vault_command_after_dashdash
                set -l words (commandline -opc)
                set -l at (contains -i -- -- $words)
                set -l rest $words[(math $at + 1)..-1]
                complete -C (string join ' ' -- (string escape -- $rest) (commandline -ct))
            end

            complete -c vault -f

            """
        for command in CommandTable.offeredCommands {
            script += "complete -c vault -n __vault_no_command -a \(command.name) -d \(quoted(command.summary))\n"
        }
        script += "\n" + CommandTable.visibleGlobalOptions.map { line($0, condition: nil) }.joined()
        for command in CommandTable.visibleCommands {
            let condition = quoted("__vault_using " + command.name)
            script += "\n"
            script += command.visibleOptions.map { line($0, condition: condition) }.joined()
            if command.takesCommandAfterDashDash {
                script +=
                    "complete -c vault -n \(quoted("__vault_using \(command.name); and __vault_after_dashdash")) -a '(__vault_command_after_dashdash)'\n"
            }
            for positional in command.positionals {
                script += "complete -c vault -n \(condition)\(arguments(positional.completion)) -d \(quoted(positional.help))\n"
            }
        }
        return script
    }

    /// `complete -c vault -n COND -s s -l service -x -a '(…)' -d 'help'`.
    private static func line(_ option: OptionSpec, condition: String?) -> String {
        var line = "complete -c vault"
        if let condition { line += " -n " + condition }
        if let short = option.short { line += " -s \(short)" }
        line += " -l " + option.long
        if !option.isFlag { line += (option.completion == .file ? " -r" : " -x") + arguments(option.completion) }
        return line + " -d " + quoted(option.help) + "\n"
    }

    /// The `complete` flags that offer the words of a value or argument.
    private static func arguments(_ completion: CompletionKind) -> String {
        switch completion {
        case .none: ""
        case .file: " -F"
        case .directory: " -a '(__fish_complete_directories)'"
        case .values(let words): " -a " + quoted(words.joined(separator: " "))
        case .group: " -a '(__vault_names groups)'"
        case .service: " -a '(__vault_names services)'"
        case .account: " -a '(__vault_names accounts)'"
        case .item: " -a '(__vault_names items)'"
        case .command: " -a " + quoted(CommandTable.offeredCommands.map(\.name).joined(separator: " "))
        }
    }

    /// `text` in fish single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'") + "'"
    }
}
