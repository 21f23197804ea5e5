#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// C copies of Swift strings (nil stays a null pointer) that live as long as this object, for
/// libpq calls that take `const char *const *` arrays; and binary parameters, with their lengths and formats.
///
/// A binary value is not copied: its length says where it ends, so libpq reads it where it is, for the length of
/// the call (``withNullTerminatedPointers(_:)``). A commit batch is such a value, hundreds of kilobytes in a busy
/// second; a copy of it was a large allocation and a `memcpy` a batch, and freeing it made glibc consolidate its heap.
final class CStringArray {
    private let pointers: [UnsafeMutablePointer<CChar>?]
    /// The values as given: the binary ones are read from here.
    private let values: [PostgresValue]
    /// The place of the first string that holds a NUL character (its C copy ends there), if any.
    let firstWithNUL: Int?
    /// Each value's length and format (1 binary, 0 text), when any is binary; nil when all are text.
    let lengths: [Int32]?
    let formats: [Int32]?

    convenience init(_ strings: [String?]) {
        self.init(strings.map { $0.map(PostgresValue.text) ?? .null })
    }

    /// The parameters: texts copied (nil for SQL NULL), their bytes as they are; binary values kept, not copied.
    init(_ values: [PostgresValue]) {
        var firstWithNUL: Int?
        var lengths: [Int32]?
        pointers = values.enumerated().map { index, value in
            let copy: (pointer: UnsafeMutablePointer<CChar>, hasNUL: Bool)
            switch value {
            case .null: return nil
            case .utf8(let bytes):
                let pointer = Self.copy(bytes)
                // memchr, not `contains`: a text of kilobytes, and a loop of Swift's over it cost more than it saved.
                copy = (pointer, memchr(pointer, 0, bytes.count) != nil)
            case .binary(let bytes):
                // Any byte may be in a binary value (no NUL to look for): its length says where it ends.
                if lengths == nil { lengths = [Int32](repeating: 0, count: values.count) }
                lengths?[index] = Int32(bytes.count)
                return nil
            default: copy = Self.copy(value.wireText ?? "")
            }
            if firstWithNUL == nil, copy.hasNUL { firstWithNUL = index }
            return copy.pointer
        }
        self.firstWithNUL = firstWithNUL
        self.values = values
        self.lengths = lengths
        formats = lengths == nil ? nil : values.map { value in
            if case .binary = value { return 1 } else { return 0 }
        }
    }

    private static func copy(_ string: String) -> (pointer: UnsafeMutablePointer<CChar>, hasNUL: Bool) {
        guard let copy = strdup(string) else { fatalError("strdup failed: out of memory") }
        // strdup has measured the copy already: a shorter one met a NUL (no second pass over a long text).
        return (copy, strlen(copy) != string.utf8.count)
    }

    /// The bytes in memory of their own, with a NUL after them.
    private static func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        guard let copy = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else { fatalError("malloc failed: out of memory") }
        copy[bytes.count] = 0
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { memcpy(copy, base, source.count) }
        }
        return copy
    }

    deinit {
        for pointer in pointers {
            free(pointer)
        }
    }

    /// Calls `body` with the values' lengths and formats (nil when all are text), as `PQexecParams` wants.
    func withLengthsAndFormats<Result>(_ body: (UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> Result) -> Result {
        guard let lengths, let formats else { return body(nil, nil) }
        return lengths.withUnsafeBufferPointer { lengths in
            formats.withUnsafeBufferPointer { formats in body(lengths.baseAddress, formats.baseAddress) }
        }
    }

    /// Calls `body` with the values followed by one null pointer, as `PQconnectdbParams` and `PQexecParams` want;
    /// binary values point into their own arrays, valid until `body` returns.
    func withNullTerminatedPointers<Result>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        var constPointers: [UnsafePointer<CChar>?] = []
        constPointers.reserveCapacity(pointers.count + 1)
        for pointer in pointers { constPointers.append(pointer.map { UnsafePointer($0) }) }
        constPointers.append(nil)
        return Self.pinning(values, from: 0, into: &constPointers, body)
    }

    /// Points at each binary value from `place` on, each pinned by a scope of its own, nested (a statement has one
    /// or two), then calls `body`.
    private static func pinning<Result>(
        _ values: [PostgresValue], from place: Int, into pointers: inout [UnsafePointer<CChar>?],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        for next in place..<values.count {
            guard case .binary(let bytes) = values[next] else { continue }
            return bytes.withUnsafeBytes { bytes in
                // An empty array may have no storage, and a null pointer would be SQL NULL to libpq.
                pointers[next] = bytes.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) } ?? noBytes
                return pinning(values, from: next + 1, into: &pointers, body)
            }
        }
        return pointers.withUnsafeBufferPointer { buffer in body(buffer.baseAddress!) }
    }

    /// Where an empty binary value points: somewhere (a static NUL byte), for zero bytes.
    private static var noBytes: UnsafePointer<CChar> {
        UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
