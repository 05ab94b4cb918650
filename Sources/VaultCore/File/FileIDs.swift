/// An access group's id in a vault file: random, unique in the file, and what
/// every index entry, grant, MAC and AAD names the group by (the name itself
/// is sealed). A type of its own, so it is never mixed up with a count or a class id.
struct GroupID: Hashable, Comparable, CustomStringConvertible {
    let rawValue: UInt32

    init(_ rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A random id, never 0.
    static func random() -> GroupID { GroupID(UInt32.random(in: 1...UInt32.max)) }

    static func < (lhs: GroupID, rhs: GroupID) -> Bool { lhs.rawValue < rhs.rawValue }

    var description: String { String(rawValue) }
}

/// An accessibility class's id in a vault file (1–7, docs/FORMAT.md), as
/// `Accessibility.fileID` gives it.
struct ClassID: Hashable, Comparable {
    let rawValue: UInt8

    init(_ rawValue: UInt8) {
        self.rawValue = rawValue
    }

    static func < (lhs: ClassID, rhs: ClassID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ByteWriter {
    mutating func groupID(_ id: GroupID) { u32(id.rawValue) }
    mutating func classID(_ id: ClassID) { u8(id.rawValue) }
}

extension ByteReader {
    mutating func groupID() throws -> GroupID { GroupID(try u32()) }
    mutating func classID() throws -> ClassID { ClassID(try u8()) }
}
