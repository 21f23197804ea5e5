import DequeModule

/// The bookkeeping of ``AddressTurns``, without threads: which source addresses have an AUTH in its turn, and who
/// waits behind it, in order of arrival. Tests drive it alone.
struct AddressTurnLine<Waiter> {
    /// The addresses with an AUTH in its turn, and the AUTHs waiting behind it (often none).
    private var lines: [String: Deque<Waiter>] = [:]
    /// How many AUTHs wait, over every address.
    private(set) var waitingCount = 0

    /// An AUTH from `address` asks for its turn: true when it has it now, false when `waiter` waits behind others.
    mutating func arrive(from address: String, _ waiter: Waiter) -> Bool {
        guard lines[address] != nil else {
            lines[address] = []
            return true
        }
        lines[address]!.append(waiter)
        waitingCount += 1
        return false
    }

    /// The AUTH in `address`'s turn is done: the waiter whose turn it is now, or nil when none waits (the address
    /// then has no turn in progress).
    mutating func leave(from address: String) -> Waiter? {
        guard let next = lines[address]?.popFirst() else {
            lines[address] = nil
            return nil
        }
        waitingCount -= 1
        return next
    }

    /// Whether an AUTH from `address` is in its turn.
    func hasTurnInProgress(from address: String) -> Bool {
        lines[address] != nil
    }
}
