/// A protocol error together with the tag its answer must carry (`*` when the request's tag was unusable).
public struct TaggedProtocolError: Error, Sendable, Hashable {
    public var tag: String
    public var error: ProtocolError

    public init(tag: String, error: ProtocolError) {
        self.tag = tag
        self.error = error
    }
}
