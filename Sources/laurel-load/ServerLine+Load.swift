import LaurelProtocol

extension ServerLine {
    /// The sequence number of a LOG request's response, whose tag is `l` and the number.
    var logSequence: Int? {
        guard tag.first == "l" else { return nil }
        return Int(tag.dropFirst())
    }

    /// The error code of an `ERR` line, or a stand-in when the line says none.
    var loadErrorCode: String { errorCode ?? "unreadable_error" }
}
