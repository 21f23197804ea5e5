import LaurelProtocol
import Synchronization

/// The tags of one ``LaurelConnection``'s requests: `c1`, `c2`, ... in the order they are sent, and the requests
/// that wait for their answers. Shared by the callers that send and the ``AnswerRouter`` that reads.
final class RequestTags: Sendable {
    /// What every tag of a connection starts with; the number follows.
    static let prefix: UInt8 = UInt8(ascii: "c")

    private struct Waiting {
        var answers: [Int: CheckedContinuation<ServerLine, any Error>] = [:]
        var closed = false
    }

    private let last = Atomic<Int>(0)
    private let waiting = Mutex(Waiting())

    /// A fresh tag's number.
    func next() -> Int {
        last.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The number of a tag this connection gave out, or nil for any other tag (`*`, or one of a line sent raw).
    func number(of tag: String) -> Int? {
        var utf8 = tag.utf8[...]
        guard utf8.count > 1, utf8.removeFirst() == Self.prefix, utf8.first != UInt8(ascii: "0") else { return nil }
        var number = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), number < Int.max / 10 - 9 else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return number <= last.load(ordering: .relaxed) ? number : nil
    }

    /// Keeps `continuation` for the answer tagged `number`; false once the connection has ended.
    func await(_ number: Int, with continuation: CheckedContinuation<ServerLine, any Error>) -> Bool {
        waiting.withLock { waiting in
            guard !waiting.closed else { return false }
            waiting.answers[number] = continuation
            return true
        }
    }

    /// The request waiting for the answer tagged `number`, no longer waiting.
    func take(_ number: Int) -> CheckedContinuation<ServerLine, any Error>? {
        waiting.withLock { $0.answers.isEmpty ? nil : $0.answers.removeValue(forKey: number) }
    }

    /// The connection ended: every waiting request, none waiting from now on.
    func close() -> [CheckedContinuation<ServerLine, any Error>] {
        waiting.withLock { waiting in
            waiting.closed = true
            defer { waiting.answers = [:] }
            return Array(waiting.answers.values)
        }
    }
}
