import LaurelJSON
import LaurelProtocol

extension ServerLine {
    /// The error code of an `ERR` line, or a stand-in when the line says none.
    var loadErrorCode: String { errorCode ?? "unreadable_error" }

    /// The ids of the achievements an answer says it unlocked.
    ///
    /// Most LOGs unlock nothing, and the load client shares the machine with the server it measures: an answer that
    /// says `"unlocked":[]` is taken at its word without parsing the rest. A server that wrote an empty list another
    /// way would only make the client parse more; an unlock missed here would show in the report as `unexpected`
    /// pushes and fewer `expected` ones.
    var unlockedIDs: [String] {
        guard let payload, !Self.containsNothingUnlocked(payload) else { return [] }
        return value?["unlocked"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    private static let nothingUnlocked = Array(#""unlocked":[]"#.utf8)

    private static func containsNothingUnlocked(_ text: Substring) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { contains(nothingUnlocked, in: $0) }
            ?? Array(text.utf8).withUnsafeBufferPointer { contains(nothingUnlocked, in: $0) }
    }

    private static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if needle.indices.allSatisfy({ haystack[start + $0] == needle[$0] }) { return true }
        }
        return false
    }
}
