import NIOCore

/// Terminates each outbound line with LF: a client's request lines (the server writes the LF into its lines itself).
public struct LineFrameEncoder: MessageToByteEncoder {
    public typealias OutboundIn = ByteBuffer

    public init() {}

    public func encode(data: ByteBuffer, out: inout ByteBuffer) {
        out.reserveCapacity(minimumWritableBytes: data.readableBytes + 1)
        out.writeImmutableBuffer(data)
        out.writeInteger(UInt8(ascii: "\n"))
    }
}
