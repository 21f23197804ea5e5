import LaurelJSON
import LaurelProtocol
import NIOCore

/// Parses `"t " + text` all the way to a typed request.
func parseRequest(_ text: String) -> Result<Request, ProtocolError> {
    switch RequestLineParser.parse(ByteBuffer(string: "t " + text)) {
    case .failure(let error):
        return .failure(error.error)
    case .success(let line):
        do throws(ProtocolError) {
            return .success(try Request.parse(line))
        } catch {
            return .failure(error)
        }
    }
}

/// The request parsed from `text`, or `nil` if it was rejected.
func request(_ text: String) -> Request? {
    try? parseRequest(text).get()
}

/// The `field` of the `invalid_argument` error `text` is rejected with, or `nil` if it is not rejected so.
func invalidField(_ text: String) -> String? {
    guard case .failure(let error) = parseRequest(text), error.code == .invalidArgument else {
        return nil
    }
    return error.details["field"]?.stringValue
}

/// A JSON string literal of `text`, for building request lines.
func quoted(_ text: String) -> String {
    JSONValue.string(text).serialized()
}
