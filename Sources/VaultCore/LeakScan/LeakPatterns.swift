/// One secret in one encoding: what a pattern of `LeakPatterns` shows.
package struct LeakSource: Hashable, Sendable {
    /// The secret's index in the list `LeakPatterns` was built from.
    package var secret: Int
    /// How the secret is written where it was found (raw, base64, hex …).
    package var encoding: SecretEncoding

    /// The `secret`-th secret given to `LeakPatterns`, written in `encoding`.
    package init(secret: Int, encoding: SecretEncoding) {
        self.secret = secret
        self.encoding = encoding
    }
}

/// Every secret to look for, in every `SecretEncoding`, compiled into one
/// `PrefixMatcher` (as the masker's) whose patterns map back to the secrets
/// they show: one pass over the input searches for all of them.
package final class LeakPatterns: @unchecked Sendable {
    /// Secrets shorter than this many bytes are not searched: they would
    /// match everywhere. They are listed in `skipped` instead.
    package static let minimumLength = 8

    /// Every searched pattern, by pattern id, found by its first 8 bytes.
    let matcher: PrefixMatcher
    /// By pattern id: the secrets and encodings the pattern shows (one secret
    /// once, in its first encoding in `SecretEncoding.allCases` order).
    package let sources: [[LeakSource]]
    /// The indexes of the secrets too short to search.
    package let skipped: [Int]

    /// Compiles every form of every secret of at least `minimumLength` bytes;
    /// hits name a secret by its index in `secrets`.
    package init(secrets: [[UInt8]]) {
        var idByPattern: [[UInt8]: Int] = [:]
        var patterns: [[UInt8]] = []
        var sources: [[LeakSource]] = []
        var skipped: [Int] = []
        for (index, secret) in secrets.enumerated() {
            guard secret.count >= LeakPatterns.minimumLength else {
                skipped.append(index)
                continue
            }
            for encoding in SecretEncoding.allCases {
                for form in encoding.forms(of: secret) where form.count >= LeakPatterns.minimumLength {
                    let id =
                        idByPattern[form]
                        ?? {
                            idByPattern[form] = patterns.count
                            patterns.append(form)
                            sources.append([])
                            return patterns.count - 1
                        }()
                    if !sources[id].contains(where: { $0.secret == index }) {
                        sources[id].append(LeakSource(secret: index, encoding: encoding))
                    }
                }
            }
        }
        matcher = PrefixMatcher(patterns: patterns)
        self.sources = sources
        self.skipped = skipped
    }
}
