import VaultCLI

#if canImport(Glibc)
import Glibc
#endif

exit(VaultMain.run(Array(CommandLine.arguments.dropFirst()), invokedAs: CommandLine.arguments.first ?? "vault"))
