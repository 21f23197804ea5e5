#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// C copies of Swift strings (nil stays a null pointer) that live as long as this object, for
/// libpq calls that take `const char *const *` arrays.
final class CStringArray {
    private let pointers: [UnsafeMutablePointer<CChar>?]
    /// The place of the first string that holds a NUL character (its C copy ends there), if any.
    let firstWithNUL: Int?

    convenience init(_ strings: [String?]) {
        self.init(strings.map { $0.map(PostgresValue.text) ?? .null })
    }

    /// The parameters' texts (nil for SQL NULL); bytes are copied as they are.
    init(_ values: [PostgresValue]) {
        var firstWithNUL: Int?
        pointers = values.enumerated().map { index, value in
            let copy: (pointer: UnsafeMutablePointer<CChar>, hasNUL: Bool)
            switch value {
            case .null: return nil
            case .utf8(let bytes): copy = Self.copy(bytes)
            default: copy = Self.copy(value.wireText ?? "")
            }
            if firstWithNUL == nil, copy.hasNUL { firstWithNUL = index }
            return copy.pointer
        }
        self.firstWithNUL = firstWithNUL
    }

    private static func copy(_ string: String) -> (pointer: UnsafeMutablePointer<CChar>, hasNUL: Bool) {
        guard let copy = strdup(string) else { fatalError("strdup failed: out of memory") }
        // strdup has measured the copy already: a shorter one met a NUL (no second pass over a long text).
        return (copy, strlen(copy) != string.utf8.count)
    }

    private static func copy(_ bytes: [UInt8]) -> (pointer: UnsafeMutablePointer<CChar>, hasNUL: Bool) {
        guard let copy = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else { fatalError("malloc failed: out of memory") }
        copy[bytes.count] = 0
        // memchr, not `contains`: a batch is kilobytes, and a loop of Swift's over them cost more than it saved.
        let hasNUL = bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return false }
            memcpy(copy, base, source.count)
            return memchr(base, 0, source.count) != nil
        }
        return (copy, hasNUL)
    }

    deinit {
        for pointer in pointers {
            free(pointer)
        }
    }

    /// Calls `body` with the strings followed by one null pointer, as `PQconnectdbParams` wants.
    func withNullTerminatedPointers<Result>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let constPointers = pointers.map { $0.map { UnsafePointer($0) } } + [nil]
        return constPointers.withUnsafeBufferPointer { buffer in
            body(buffer.baseAddress!)
        }
    }
}
