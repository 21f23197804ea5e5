import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

/// The in-memory board: the order and positions of ``OrderedStandings`` against a sorted array through random
/// insertions and removals (across chunk splits), and ``RankedBoard``'s versions, opt-outs and pages.
@Suite struct RankedBoardTests {
    static func standing(_ score: Int, _ reached: Int, _ user: Int64) -> BoardStanding {
        BoardStanding(score: score, reachedMicroseconds: reached, user: UserID(user))
    }

    @Test func theOrderIsScoreThenFirstReachedThenUser() {
        let sorted = [Self.standing(9, 50, 3), Self.standing(5, 10, 2), Self.standing(5, 20, 1), Self.standing(5, 20, 4), Self.standing(1, 0, 0)]
        #expect(sorted.shuffled().sorted() == sorted)
    }

    @Test func orderedStandingsAgreeWithASortedArray() {
        var random = SeededRandom(seed: 19)
        var model: [BoardStanding] = []
        var ordered = OrderedStandings((0..<3_000).map { Self.standing(random.below(500), random.below(1_000), Int64($0)) })
        model = ordered.standings(from: 0, limit: .max)
        #expect(model == model.sorted() && model.count == 3_000)
        var nextUser: Int64 = 3_000
        for step in 0..<6_000 {
            if random.below(3) > 0 || model.isEmpty {
                let new = Self.standing(random.below(500), random.below(1_000), nextUser)
                nextUser += 1
                ordered.insert(new)
                model.insert(new, at: model.firstIndex { new < $0 } ?? model.count)
            } else {
                let gone = model.remove(at: random.below(model.count))
                let (first, second) = (ordered.remove(gone), ordered.remove(gone))
                #expect(first && !second, "removed once")
            }
            if step % 500 == 0 || step == 5_999 {
                #expect(ordered.count == model.count)
                #expect(ordered.standings(from: 0, limit: .max) == model)
                for _ in 0..<50 {
                    let probe = model[random.below(model.count)]
                    #expect(ordered.position(of: probe) == model.firstIndex(of: probe))
                    #expect(ordered.contains(probe))
                    let from = random.below(model.count)
                    #expect(ordered.standings(from: from, limit: 7) == Array(model[from..<min(from + 7, model.count)]))
                }
                let absent = Self.standing(250, 500, -1)
                #expect(!ordered.contains(absent) && ordered.position(of: absent) == model.count(where: { $0 < absent }))
            }
        }
    }

    @Test func commitsApplyInVersionOrderAndReadingsWin() {
        let user = UserID(7)
        var board = RankedBoard()
        #expect(board.apply(user, version: 3, delta: 0, reachedMicroseconds: 100) == .applied)
        #expect(board.standing(of: user) == nil, "no rise, no entry")
        #expect(board.apply(user, version: 4, delta: 5, reachedMicroseconds: 100) == .appliedToUnknown, "what came before is not known")
        #expect(board.apply(user, version: 4, delta: 5, reachedMicroseconds: 100) == .alreadyHeld)
        #expect(board.apply(user, version: 5, delta: 2, reachedMicroseconds: 200) == .applied)
        #expect(board.standing(of: user) == Self.standing(7, 200, 7))
        #expect(board.apply(user, version: 7, delta: 1, reachedMicroseconds: 300) == .gap, "version 6 is missing")
        #expect(board.standing(of: user)?.score == 7)

        // A reading at version 8 is absolute; an older one is ignored.
        board.set(user, to: RankedBoard.Entry(score: 20, reachedMicroseconds: 400, optedOut: false, version: 8))
        board.set(user, to: RankedBoard.Entry(score: 1, reachedMicroseconds: 1, optedOut: false, version: 6))
        #expect(board.standing(of: user) == Self.standing(20, 400, 7) && board.total == 1)
        // A decrease keeps `reached_at`; at 0 the user leaves the order but the version stays.
        #expect(board.apply(user, version: 9, delta: -20, reachedMicroseconds: 500) == .applied)
        #expect(board.standing(of: user) == nil && board.total == 0)
        #expect(board.apply(user, version: 9, delta: 3, reachedMicroseconds: 500) == .alreadyHeld)
    }

    @Test func optedOutUsersAreOnFriendsBoardsOnly() {
        let (me, friend, other) = (UserID(1), UserID(2), UserID(3))
        var board = RankedBoard(entries: [
            me: .init(score: 5, reachedMicroseconds: 10, optedOut: false, version: 1),
            friend: .init(score: 9, reachedMicroseconds: 10, optedOut: false, version: 1),
            other: .init(score: 7, reachedMicroseconds: 10, optedOut: false, version: 1),
        ])
        #expect(board.apply(friend, version: 2, delta: 0, reachedMicroseconds: 20, optedOut: true) == .applied)
        let global = board.page(asker: me, friends: nil, start: .top, limit: 10)
        #expect(global.entries.map(\.standing.user) == [other, me] && global.asker?.rank == 2 && global.total == 2)
        let friends = board.page(asker: me, friends: [friend], start: .top, limit: 10)
        #expect(friends.entries.map(\.standing.user) == [friend, me] && friends.asker?.rank == 2 && friends.total == 2)
        #expect(board.page(asker: friend, friends: nil, start: .top, limit: 10).asker == nil, "opted out: no global rank")
    }

    @Test func pagesVisitEveryoneOnceAndAroundMeCentresTheAsker() {
        let entries = Dictionary(uniqueKeysWithValues: (1...9).map { (UserID(Int64($0)), RankedBoard.Entry(score: 10 - $0 / 2, reachedMicroseconds: $0, optedOut: false, version: 1)) })
        let board = RankedBoard(entries: entries)
        var seen: [Int] = []
        var start = RankedBoard.PageStart.top
        while true {
            let page = board.page(asker: UserID(1), friends: nil, start: start, limit: 4)
            seen += page.entries.map(\.rank)
            guard page.hasMore, let last = page.entries.last else { break }
            start = .after(last.standing)
        }
        #expect(seen == Array(1...9))
        let middle = board.page(asker: UserID(5), friends: nil, start: .aroundAsker, limit: 4)
        #expect(middle.asker?.rank == 5 && middle.entries.map(\.rank) == [3, 4, 5, 6])
        #expect(board.page(asker: UserID(9), friends: nil, start: .aroundAsker, limit: 4).entries.map(\.rank) == [6, 7, 8, 9])
        #expect(board.page(asker: UserID(1), friends: nil, start: .aroundAsker, limit: 4).entries.map(\.rank) == [1, 2, 3, 4])
        #expect(board.page(asker: UserID(99), friends: nil, start: .aroundAsker, limit: 4).entries.map(\.rank) == [1, 2, 3, 4])
        // A cursor no longer on the board (its user moved since) continues where it falls: after (9, 3, u3).
        #expect(board.page(asker: UserID(1), friends: nil, start: .after(Self.standing(8, 3, 42)), limit: 2).entries.first?.rank == 4)
    }
}
