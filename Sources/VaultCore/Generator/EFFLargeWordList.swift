/// The EFF large word list for passphrases: 7 776 short, distinct, easily
/// typed English words (5 dice rolls each). Source and licence: README.md
/// beside this file.
package enum EFFLargeWordList {
    /// The words, in the list's order.
    package static let words: [Substring] = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
}
