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

    init(_ strings: [String?]) {
        var firstWithNUL: Int?
        pointers = strings.enumerated().map { index, string in
            string.map { value in
                guard let copy = strdup(value) else { fatalError("strdup failed: out of memory") }
                // strdup has measured the copy already: a shorter one met a NUL (no second pass over a long text).
                if firstWithNUL == nil, strlen(copy) != value.utf8.count { firstWithNUL = index }
                return copy
            }
        }
        self.firstWithNUL = firstWithNUL
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
