/// When an item may be read — the Linux meaning of kSecAttrAccessible*.
/// The class decides which keys can decrypt the item (docs/SECURITY.md).
public enum Accessibility: String, CaseIterable, Sendable, Codable {
    /// Readable while the vault is unlocked: a credential on this call or a live session.
    case whenUnlocked = "when-unlocked"
    /// Readable once the vault has been unlocked since boot.
    case afterFirstUnlock = "after-first-unlock"
    /// Readable without any unlock (deprecated by Apple).
    case always = "always"
    /// As when-unlocked, and only on this machine (bound to the device key).
    case whenUnlockedThisDeviceOnly = "when-unlocked-this-device-only"
    /// As after-first-unlock, and only on this machine.
    case afterFirstUnlockThisDeviceOnly = "after-first-unlock-this-device-only"
    /// As always, and only on this machine.
    case alwaysThisDeviceOnly = "always-this-device-only"
    /// As when-unlocked-this-device-only, and only while the vault has a passphrase.
    case whenPasscodeSetThisDeviceOnly = "when-passcode-set-this-device-only"

    /// The default class of a new item.
    public static let `default` = Accessibility.whenUnlocked

    /// Parses the CLI spelling or the Apple constant name (`kSecAttrAccessibleWhenUnlocked`).
    package init?(name: String) {
        if let value = Accessibility(rawValue: name) {
            self = value
            return
        }
        guard let value = Accessibility.allCases.first(where: { $0.appleConstant == name }) else { return nil }
        self = value
    }

    /// The Apple constant this class mirrors.
    package var appleConstant: String {
        switch self {
        case .whenUnlocked: return "kSecAttrAccessibleWhenUnlocked"
        case .afterFirstUnlock: return "kSecAttrAccessibleAfterFirstUnlock"
        case .always: return "kSecAttrAccessibleAlways"
        case .whenUnlockedThisDeviceOnly: return "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
        case .afterFirstUnlockThisDeviceOnly: return "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        case .alwaysThisDeviceOnly: return "kSecAttrAccessibleAlwaysThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: return "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
        }
    }

    /// The class's id in the vault file (docs/FORMAT.md).
    var fileID: ClassID {
        switch self {
        case .whenUnlocked: return ClassID(1)
        case .afterFirstUnlock: return ClassID(2)
        case .always: return ClassID(3)
        case .whenUnlockedThisDeviceOnly: return ClassID(4)
        case .afterFirstUnlockThisDeviceOnly: return ClassID(5)
        case .alwaysThisDeviceOnly: return ClassID(6)
        case .whenPasscodeSetThisDeviceOnly: return ClassID(7)
        }
    }

    /// The class with the given file id, if any.
    init?(fileID: ClassID) {
        guard let value = Accessibility.allCases.first(where: { $0.fileID == fileID }) else { return nil }
        self = value
    }

    /// Whether item keys also depend on this machine's device key.
    package var isDeviceBound: Bool {
        switch self {
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
            .whenPasscodeSetThisDeviceOnly:
            return true
        case .whenUnlocked, .afterFirstUnlock, .always:
            return false
        }
    }

    /// Whether the class opens with no unlock at all (its keys are also wrapped under the device key).
    package var opensWithoutUnlock: Bool { self == .always || self == .alwaysThisDeviceOnly }

    /// Classes whose base keys the device key alone opens.
    static let deviceClasses = allCases.filter(\.opensWithoutUnlock)
}
