/// The sealed records, in index order: left in place in the file (each is
/// copied out when it is used) until the first change, then one piece per
/// record, each a range of the file or bytes in memory.
struct RecordList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral {
    /// A record after the first change: still in the file (a range of it, no reference of its own), or new.
    private enum Piece {
        case inFile(Range<Int>)
        case inMemory([UInt8])

        var count: Int {
            switch self {
            case .inFile(let range): return range.count
            case .inMemory(let bytes): return bytes.count
            }
        }
    }

    private var file: FileBytes?
    /// Before the first change: record i is `offsets[i] ..< offsets[i + 1]` of `file`.
    private var offsets: [Int]?
    private var pieces: [Piece] = []

    init() {}

    init(arrayLiteral records: ArraySlice<UInt8>...) { pieces = records.map { .inMemory(Array($0)) } }

    /// Records back to back in `file`, record i at `offsets[i] ..< offsets[i + 1]`.
    init(file: FileBytes, offsets: [Int]) {
        precondition(!offsets.isEmpty, "record offsets without the end")
        self.file = file
        self.offsets = offsets
    }

    var startIndex: Int { 0 }
    var endIndex: Int { offsets.map { $0.count - 1 } ?? pieces.count }

    /// The record at `position`, where it is.
    func stored(at position: Int) -> StoredBytes {
        if let offsets, let file { return StoredBytes(file, offsets[position]..<offsets[position + 1]) }
        switch pieces[position] {
        case .inFile(let range): return StoredBytes(file!, range)
        case .inMemory(let bytes): return StoredBytes(bytes)
        }
    }

    /// A copy of the record at `position`.
    subscript(position: Int) -> ArraySlice<UInt8> {
        get { stored(at: position).bytes[...] }
        set {
            splitIntoPieces()
            pieces[position] = .inMemory(Array(newValue))
        }
    }

    mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with records: C) where C.Element == ArraySlice<UInt8> {
        splitIntoPieces()
        pieces.replaceSubrange(subrange, with: records.map { .inMemory(Array($0)) })
    }

    /// How many bytes the records hold together.
    var byteCount: Int {
        if let offsets { return offsets[offsets.count - 1] - offsets[0] }
        return pieces.reduce(0) { $0 + $1.count }
    }

    /// The records back to back, in as few pieces as they are stored in: neighbours still in the file are one piece.
    var runs: [StoredBytes] {
        if let offsets, let file { return [StoredBytes(file, offsets[0]..<offsets[offsets.count - 1])] }
        var runs: [StoredBytes] = []
        var pending: Range<Int>?
        func endRun() {
            if let run = pending, let file { runs.append(StoredBytes(file, run)) }
            pending = nil
        }
        for piece in pieces {
            switch piece {
            case .inFile(let range):
                if let run = pending, run.upperBound == range.lowerBound {
                    pending = run.lowerBound..<range.upperBound
                } else {
                    endRun()
                    pending = range
                }
            case .inMemory(let bytes):
                endRun()
                runs.append(StoredBytes(bytes))
            }
        }
        endRun()
        return runs
    }

    /// One piece per record, the first time the list changes.
    private mutating func splitIntoPieces() {
        guard let offsets else { return }
        pieces = (0..<offsets.count - 1).map { .inFile(offsets[$0]..<offsets[$0 + 1]) }
        self.offsets = nil
    }
}
