import VaultCLI

#if canImport(Glibc)
import Glibc
#endif

exit(VaultMain.run(rawArguments: VaultMain.processArguments, invokedAs: CommandLine.arguments.first ?? "vault"))
