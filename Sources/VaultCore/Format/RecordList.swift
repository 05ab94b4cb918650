/// The sealed records, in index order: left in place in the file (each is
/// copied out when it is used) until the first change, then one piece per
/// record, each still in the file or in memory.
struct RecordList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral {
    private enum Storage {
        /// Record i is `offsets[i] ..< offsets[i + 1]` of the file.
        case inFile(FileBytes, offsets: [Int])
        case pieces([StoredBytes])
    }

    private var storage: Storage

    init() { storage = .pieces([]) }

    init(arrayLiteral records: ArraySlice<UInt8>...) { storage = .pieces(records.map { StoredBytes(Array($0)) }) }

    /// Records back to back in `file`, record i at `offsets[i] ..< offsets[i + 1]`.
    init(file: FileBytes, offsets: [Int]) {
        precondition(!offsets.isEmpty, "record offsets without the end")
        storage = .inFile(file, offsets: offsets)
    }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .inFile(_, let offsets): return offsets.count - 1
        case .pieces(let pieces): return pieces.count
        }
    }

    /// The record at `position`, where it is.
    func stored(at position: Int) -> StoredBytes {
        switch storage {
        case .inFile(let file, let offsets): return StoredBytes(file, offsets[position] ..< offsets[position + 1])
        case .pieces(let pieces): return pieces[position]
        }
    }

    /// A copy of the record at `position`.
    subscript(position: Int) -> ArraySlice<UInt8> {
        get { stored(at: position).bytes[...] }
        set {
            var pieces = takePieces()
            pieces[position] = StoredBytes(Array(newValue))
            storage = .pieces(pieces)
        }
    }

    mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with records: C) where C.Element == ArraySlice<UInt8> {
        var pieces = takePieces()
        pieces.replaceSubrange(subrange, with: records.map { StoredBytes(Array($0)) })
        storage = .pieces(pieces)
    }

    /// How many bytes the records hold together.
    var byteCount: Int {
        switch storage {
        case .inFile(_, let offsets): return offsets[offsets.count - 1] - offsets[0]
        case .pieces(let pieces): return pieces.reduce(0) { $0 + $1.count }
        }
    }

    /// The records back to back, in as few pieces as they are stored in: neighbours still in the file are one piece.
    var runs: [StoredBytes] {
        switch storage {
        case .inFile(let file, let offsets):
            return [StoredBytes(file, offsets[0] ..< offsets[offsets.count - 1])]
        case .pieces(let pieces):
            var runs: [StoredBytes] = []
            var pending: (file: FileBytes, range: Range<Int>)?
            for piece in pieces {
                if let (file, range) = piece.fileRange {
                    if let run = pending, run.file === file, run.range.upperBound == range.lowerBound {
                        pending = (file, run.range.lowerBound ..< range.upperBound)
                        continue
                    }
                    if let run = pending { runs.append(StoredBytes(run.file, run.range)) }
                    pending = (file, range)
                } else {
                    if let run = pending { runs.append(StoredBytes(run.file, run.range)) }
                    pending = nil
                    runs.append(piece)
                }
            }
            if let run = pending { runs.append(StoredBytes(run.file, run.range)) }
            return runs
        }
    }

    private mutating func takePieces() -> [StoredBytes] {
        switch storage {
        case .inFile(let file, let offsets):
            return (0 ..< offsets.count - 1).map { StoredBytes(file, offsets[$0] ..< offsets[$0 + 1]) }
        case .pieces(let pieces):
            storage = .pieces([])
            return pieces
        }
    }
}
