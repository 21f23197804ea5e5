import LaurelProtocol

extension ServerLine {
    /// The error code of an `ERR` line, or a stand-in when the line says none.
    var loadErrorCode: String { errorCode ?? "unreadable_error" }
}
