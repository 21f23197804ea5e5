import Testing

@testable import LaurelPostgres

/// The turns of AUTHs from one address inside an instance, without threads: one AUTH of an address at a time, the
/// others in order of arrival, and other addresses never waiting for it.
@Suite struct AddressTurnLineTests {
    typealias Line = AddressTurnLine<Int>

    @Test func anAuthFromAQuietAddressHasItsTurnAtOnce() {
        var line = Line()
        let first = line.arrive(from: "198.18.0.1", 1)
        #expect(first)
        #expect(line.hasTurnInProgress(from: "198.18.0.1"))
        let next = line.leave(from: "198.18.0.1")
        #expect(next == nil, "nobody waits")
        #expect(!line.hasTurnInProgress(from: "198.18.0.1"))
        let again = line.arrive(from: "198.18.0.1", 2)
        #expect(again, "the next AUTH has its turn at once again")
    }

    @Test func authsFromOneAddressWaitAndHaveTheirTurnsInOrderOfArrival() {
        var line = Line()
        _ = line.arrive(from: "198.18.0.1", 1)
        for waiter in 2...5 {
            let now = line.arrive(from: "198.18.0.1", waiter)
            #expect(!now, "AUTH \(waiter) waits")
        }
        #expect(line.waitingCount == 4)
        var order: [Int] = []
        while let next = line.leave(from: "198.18.0.1") {
            order.append(next)
            #expect(line.hasTurnInProgress(from: "198.18.0.1"), "the turn is handed on, not given up")
        }
        #expect(order == [2, 3, 4, 5])
        #expect(line.waitingCount == 0)
        #expect(!line.hasTurnInProgress(from: "198.18.0.1"))
    }

    @Test func otherAddressesDoNotWaitForABusyOne() {
        var line = Line()
        _ = line.arrive(from: "198.18.0.1", 1)
        let behind = line.arrive(from: "198.18.0.1", 2)
        let other = line.arrive(from: "198.18.0.2", 3)
        let network = line.arrive(from: "2001:db8::", 4)
        #expect(!behind)
        #expect(other && network)
        #expect(line.waitingCount == 1)
        let afterOther = line.leave(from: "198.18.0.2")
        let afterFirst = line.leave(from: "198.18.0.1")
        #expect(afterOther == nil)
        #expect(afterFirst == 2)
    }
}
