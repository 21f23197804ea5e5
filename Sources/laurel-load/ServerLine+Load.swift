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
        guard let payload, !Self.saysNothingUnlocked(payload) else { return [] }
        return value?["unlocked"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    private static let nothingUnlocked = Array(#""unlocked":[]"#.utf8)

    /// Whether `payload` holds `"unlocked":[]`, looked for among its bytes (`String.contains` compares characters,
    /// which cost the client more than the rest of an answer).
    static func saysNothingUnlocked(_ payload: Substring) -> Bool {
        payload.utf8.withContiguousStorageIfAvailable(holdsNothingUnlocked) ?? Array(payload.utf8).withUnsafeBufferPointer(holdsNothingUnlocked)
    }

    private static func holdsNothingUnlocked(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle = nothingUnlocked
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
        }
        return false
    }
}
