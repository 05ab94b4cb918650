/// How a group's index entries (by lookup tag) and a (group, class)'s listing
/// blocks (by item id) are spread over buckets: a power of two of them, so a
/// write rehashes or re-seals only the buckets it changed, and a bucket is
/// named by the first bits of a 16-byte id (`Bytes16.bucket(among:)`).
struct Buckets {
    /// The most buckets a group's index or a pair's listing may have.
    static let maxCount = 1 << 15
    /// Index buckets: `get` checks one, a write rehashes those it changed, so they are small.
    static let index = Buckets(itemsPerBucket: 128)
    /// Listing blocks: `list` opens every one, so they are larger; a write re-seals those it changed.
    static let listing = Buckets(itemsPerBucket: 256)

    /// How many items a bucket is made for; a bucket count is kept while it holds from
    /// a quarter to twice that many per bucket, and is made again outside that range.
    let itemsPerBucket: Int

    /// The bucket count `count` items are spread over when they are spread again.
    func count(for count: Int) -> Int {
        var buckets = 1
        while buckets * itemsPerBucket < count, buckets < Buckets.maxCount { buckets *= 2 }
        return buckets
    }

    /// Whether `count` items may keep `bucketCount` buckets (then only changed buckets are made again).
    func fits(_ count: Int, bucketCount: Int) -> Bool {
        bucketCount >= 1 && count <= 2 * itemsPerBucket * bucketCount
            && (bucketCount == 1 || count * 4 >= itemsPerBucket * bucketCount)
    }

    /// Whether `count` is a bucket count a file may hold: a power of two from 1 to `maxCount`.
    static func isValid(_ count: Int) -> Bool {
        count >= 1 && count <= maxCount && count & (count - 1) == 0
    }

    /// The bucket count for `count` items that held `current`: kept while it fits, else spread again.
    func next(for count: Int, current: Int) -> Int {
        fits(count, bucketCount: current) ? current : self.count(for: count)
    }
}
