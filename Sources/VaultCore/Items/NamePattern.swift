#if canImport(Glibc)
import Glibc
#endif

/// A shell glob over a service or account name (`*`, `?`, `[…]`), for
/// `--service-glob` and `--account-glob`. Names themselves may hold `*`, so
/// a pattern is always asked for by its own option, never guessed from a name.
package struct NamePattern: Equatable, Sendable {
    /// The pattern as given.
    package let glob: String

    /// A pattern for `glob`; any text is a pattern (one without wildcards matches only itself).
    package init(_ glob: String) {
        self.glob = glob
    }

    /// Whether `name` matches, as fnmatch(3) without flags: `*` also matches `/`.
    package func matches(_ name: String) -> Bool {
        fnmatch(glob, name, 0) == 0
    }
}
