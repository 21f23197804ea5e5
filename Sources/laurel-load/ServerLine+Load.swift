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
        guard let payload, !payload.contains(#""unlocked":[]"#) else { return [] }
        return value?["unlocked"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }
}
