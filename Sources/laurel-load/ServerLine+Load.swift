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
    ///
    /// An answer that unlocked something (every user's first LOG: the open loop's first burst) is read for the ids
    /// alone, not parsed into a tree of values: that was some 20,000 instructions of the client's a line, in the
    /// very second the client shares the cores with the server it measures.
    var unlockedIDs: [String] {
        withPayloadUTF8 { bytes in
            guard !Self.holdsNothingUnlocked(bytes) else { return [] }
            return (try? JSONReader.read(utf8: bytes) { (reader: inout JSONReader) throws(JSONParseError) -> [String] in
                var ids: [String] = []
                try reader.beginObject()
                while let key = try reader.nextMember() {
                    guard key == "unlocked" else {
                        try reader.skipValue()
                        continue
                    }
                    // (A value of another kind is passed over by the reader itself.)
                    guard try reader.beginArrayIfPresent() else { continue }
                    while try reader.nextElement() {
                        if let id = try Self.id(of: &reader) { ids.append(id) }
                    }
                }
                return ids
            }) ?? []
        } ?? []
    }

    /// The `id` of an UNLOCK push's achievement, read without parsing the rest into values; nil when it has none.
    var unlockPushID: String? {
        withPayloadUTF8 { bytes in
            try? JSONReader.read(utf8: bytes) { (reader: inout JSONReader) throws(JSONParseError) -> String? in try Self.id(of: &reader) }
        } ?? nil
    }

    /// The string `id` of the object the reader is at (read whole); nil when it is no object or has none.
    private static func id(of reader: inout JSONReader) throws(JSONParseError) -> String? {
        // A value of another kind, or an `id` that is no string, is passed over by the reader itself.
        guard try reader.beginObjectIfPresent() else { return nil }
        var id: String?
        while let key = try reader.nextMember() {
            if key == "id" { id = try reader.string() } else { try reader.skipValue() }
        }
        return id
    }

    private static let nothingUnlocked = Array(#""unlocked":[]"#.utf8)

    /// Whether `bytes` hold `"unlocked":[]`, looked for among the bytes (`String.contains` compares characters,
    /// which cost the client more than the rest of an answer).
    private static func holdsNothingUnlocked(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle = nothingUnlocked
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
        }
        return false
    }
}
