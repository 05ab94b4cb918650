/// Environment variable names an item may not choose, by `--env-name` or by the name derived from
/// its service and account: each changes what a shell, the dynamic loader, an interpreter, git or
/// the CI runner does, so anyone who may write a group could make a job that exports it run code
/// of theirs. Names the job's author writes (`--env`, an env file, the environment) are the
/// author's and are never checked. This list is the second line: the first is that a job takes
/// only the names it accepts (`AcceptedNames`), since no list of dangerous names is complete.
/// docs/RUN.md lists the names and why each is here.
enum ProtectedVariable {
    /// Names compared exactly.
    static let names: Set<String> = [
        // Shells: files sourced, word splitting, trace and prompt commands, options, cd's search path.
        "BASH_ENV", "ENV", "IFS", "PATH", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "CDPATH",
        // glibc's iconv modules; interpreters' startup options and module paths.
        "GCONV_PATH", "NODE_OPTIONS", "PYTHONSTARTUP", "PYTHONPATH", "PERL5OPT", "PERL5LIB", "RUBYOPT", "JAVA_TOOL_OPTIONS",
        "PYTHONHOME", "PYTHONWARNINGS", "PYTHONINSPECT", "PYTHONBREAKPOINT", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS",
        "RUBYLIB", "PERLLIB", "NODE_PATH", "OPENSSL_CONF", "OPENSSL_ENGINES", "ZDOTDIR",
        // Programs other programs start by the name a variable holds: browsers, pagers, editors, compilers.
        "BROWSER", "PAGER", "MANPAGER", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE",
        "CC", "CXX", "CPP", "LD", "AR", "MAKEFLAGS", "MAKE", "GOFLAGS", "RUSTC_WRAPPER", "RUSTC", "CARGO_BUILD_RUSTC_WRAPPER",
        // GitHub Actions' file commands: what later steps get as environment, PATH and outputs.
        "GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"
    ]

    /// Name prefixes: the dynamic loaders (LD_PRELOAD, DYLD_INSERT_LIBRARIES), git (GIT_SSH_COMMAND,
    /// GIT_CONFIG_*), the CI runner's own settings (RUNNER_*, ACTIONS_ALLOW_UNSECURE_COMMANDS).
    static let prefixes = ["LD_", "DYLD_", "GIT_", "RUNNER_", "ACTIONS_"]

    /// Whether an item may not set `name`.
    static func contains(_ name: String) -> Bool {
        names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }
}
