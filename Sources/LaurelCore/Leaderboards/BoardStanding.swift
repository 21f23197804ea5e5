import Foundation

/// One user's place in a board key's order (rules.md, "Friends and leaderboards"): score descending, then the instant
/// the score last rose to its value (earlier first), then user id. `<` means "ranked before".
public struct BoardStanding: Hashable, Sendable, Comparable {
    public var score: Int
    /// `reached_at`, in microseconds since 1970, as stored.
    public var reachedMicroseconds: Int
    public var user: UserID

    public init(score: Int, reachedMicroseconds: Int, user: UserID) {
        self.score = score
        self.reachedMicroseconds = reachedMicroseconds
        self.user = user
    }

    /// `reached_at` as an instant.
    public var reachedAt: Date { Date(microsecondsSince1970: reachedMicroseconds) }

    public static func < (lhs: BoardStanding, rhs: BoardStanding) -> Bool {
        if lhs.score != rhs.score { return lhs.score > rhs.score }
        if lhs.reachedMicroseconds != rhs.reachedMicroseconds { return lhs.reachedMicroseconds < rhs.reachedMicroseconds }
        return lhs.user.rawValue < rhs.user.rawValue
    }
}

/// Standings kept in order, with the position of any standing found in logarithmic time: sorted chunks of at most
/// ``chunkLimit`` standings (a chunk splits in two when it outgrows that). A million standings make about 2,000
/// chunks; a position is one binary search among chunks, one inside a chunk and a sum of the chunk sizes before it;
/// an insertion or removal moves at most a chunk's elements.
public struct OrderedStandings: Sendable {
    static let chunkLimit = 1_024
    private var chunks: [[BoardStanding]] = []
    public private(set) var count = 0

    public init() {}

    /// From standings in any order (they are sorted here).
    public init(_ standings: [BoardStanding]) {
        let sorted = standings.sorted()
        count = sorted.count
        let half = Self.chunkLimit / 2
        chunks = stride(from: 0, to: sorted.count, by: half).map { Array(sorted[$0..<min($0 + half, sorted.count)]) }
    }

    /// The number of standings ranked before `standing` (its rank less one, if it is here).
    public func position(of standing: BoardStanding) -> Int {
        let chunk = chunkIndex(for: standing)
        var before = 0
        for index in 0..<chunk { before += chunks[index].count }
        guard chunk < chunks.count else { return before }
        return before + Self.insertionIndex(of: standing, in: chunks[chunk])
    }

    public func contains(_ standing: BoardStanding) -> Bool {
        let chunk = chunkIndex(for: standing)
        guard chunk < chunks.count else { return false }
        let index = Self.insertionIndex(of: standing, in: chunks[chunk])
        return index < chunks[chunk].count && chunks[chunk][index] == standing
    }

    public mutating func insert(_ standing: BoardStanding) {
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[standing]]
            return
        }
        let chunk = min(chunkIndex(for: standing), chunks.count - 1)
        chunks[chunk].insert(standing, at: Self.insertionIndex(of: standing, in: chunks[chunk]))
        if chunks[chunk].count > Self.chunkLimit {
            let upper = Array(chunks[chunk][(Self.chunkLimit / 2)...])
            chunks[chunk].removeLast(upper.count)
            chunks.insert(upper, at: chunk + 1)
        }
    }

    /// Removes `standing`; false when it is not here.
    @discardableResult
    public mutating func remove(_ standing: BoardStanding) -> Bool {
        let chunk = chunkIndex(for: standing)
        guard chunk < chunks.count else { return false }
        let index = Self.insertionIndex(of: standing, in: chunks[chunk])
        guard index < chunks[chunk].count, chunks[chunk][index] == standing else { return false }
        chunks[chunk].remove(at: index)
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        count -= 1
        return true
    }

    /// Up to `limit` standings from `position` (0 is the first), in order.
    public func standings(from position: Int, limit: Int) -> [BoardStanding] {
        guard limit > 0, position < count else { return [] }
        var skipped = 0
        var chunk = 0
        while chunk < chunks.count, skipped + chunks[chunk].count <= position {
            skipped += chunks[chunk].count
            chunk += 1
        }
        var found: [BoardStanding] = []
        found.reserveCapacity(min(limit, count - position))
        var index = max(0, position) - skipped
        while chunk < chunks.count, found.count < limit {
            found.append(chunks[chunk][index])
            index += 1
            if index == chunks[chunk].count { (chunk, index) = (chunk + 1, 0) }
        }
        return found
    }

    /// The first chunk whose last standing is not before `standing` (`chunks.count` when every chunk's is).
    private func chunkIndex(for standing: BoardStanding) -> Int {
        var (low, high) = (0, chunks.count)
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle][chunks[middle].count - 1] < standing { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func insertionIndex(of standing: BoardStanding, in chunk: [BoardStanding]) -> Int {
        var (low, high) = (0, chunk.count)
        while low < high {
            let middle = (low + high) / 2
            if chunk[middle] < standing { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
