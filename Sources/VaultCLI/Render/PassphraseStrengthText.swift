/// The words said about a weak new passphrase (`PassphraseStrength`).
enum PassphraseStrengthText {
    static func warning(_ strength: PassphraseStrength) -> String {
        "this passphrase is weak (about \(strength.bits) bits, below the \(PassphraseStrength.floorBits) vault asks for): "
            + "a stolen copy of the vault could be opened by guessing it; a longer one, or several words, is safer"
    }

    static let question = "Keep this weak passphrase?"

    static let declined = CommandFailure(
        .userCanceled, "not confirmed; nothing was changed",
        hint: "run the command again and type a longer passphrase")
}
