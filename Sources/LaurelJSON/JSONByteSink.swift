/// Where JSON text is written: the bytes of a ``JSONValue`` tree (an array) or of a ``JSONWriter`` (room made ahead).
protocol JSONByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
    /// Writes up to `maximum` bytes at the end with `body`, which returns how many it wrote.
    mutating func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int)
}

extension JSONByteSink {
    /// Text known when the program is built (a literal, a member's name).
    mutating func append(static text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    mutating func append(text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}

extension Array: JSONByteSink where Element == UInt8 {
    mutating func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let start = count
        append(contentsOf: repeatElement(0, count: maximum))
        let written = withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
        removeLast(maximum - written)
    }
}

/// The bytes of a ``JSONWriter``: a buffer with room made ahead, written through a pointer. A LOG's answer and its
/// commit are some forty short members; the array's own `append(contentsOf:)` is a call of about a hundred
/// instructions for each of them, a store into room already made a handful.
struct JSONOutputBytes: JSONByteSink {
    /// As long as the room made; the bytes after `count` are not written yet.
    private var storage: [UInt8]
    private(set) var count = 0

    init(capacity: Int) {
        // Zeros, although the bytes after `count` are never read: an array made with room uninitialized
        // (`init(unsafeUninitializedCapacity:)`, like `init(repeating:count:)`) is allocated by code the compiler does
        // not specialize, which looks the array storage's type up at run time (some 550 instructions, more than
        // writing a LOG's answer's fields). Reserving is specialized, and the zeros are copied from the stack in one
        // go (appended as a repeated element, they were written one by one).
        let room = Swift.max(capacity, 64)
        storage = []
        storage.reserveCapacity(room)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { zeros in
            zeros.initialize(repeating: 0)
            storage.append(contentsOf: zeros)
        }
    }

    /// Bytes already written by someone else (their first `count`), to be written on from there.
    init(continuing storage: consuming [UInt8], count: Int) {
        self.storage = storage
        self.count = count
    }

    /// The bytes, the room after them kept: for the owner they were borrowed from.
    consuming func handBack() -> (storage: [UInt8], count: Int) {
        (storage, count)
    }

    /// The bytes written, in an array of their own.
    var bytes: [UInt8] {
        storage.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// The bytes written, the room after them given back: the storage itself, not a copy.
    consuming func finish() -> [UInt8] {
        storage.removeLast(storage.count - count)
        return storage
    }

    /// The bytes written, as text.
    var text: String {
        storage.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[..<count]), as: UTF8.self) }
    }

    /// Writes up to `maximum` bytes at the end with `body`, which returns how many it wrote.
    @inline(__always)
    mutating func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + maximum > storage.count { grow(toHold: count + maximum) }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        write(upTo: 1) { end in
            end.initialize(to: byte)
            return 1
        }
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        write(upTo: bytes.count) { end in
            end.update(from: source, count: bytes.count)
            return bytes.count
        }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        storage.append(contentsOf: repeatElement(0, count: Swift.max(needed, storage.count * 2) - storage.count))
    }
}
