import NIOCore

/// The PROXY protocol header (version 1, text, or version 2, binary) a balancer sends first on every connection it
/// opens to an instance, naming the client it accepts the connection from. Laurel reads only the source address:
/// the destination, and version 2's TLVs, are skipped.
public enum ProxyHeader: Equatable, Sendable {
    /// A proxied connection from `source`.
    case proxied(source: SocketAddress)
    /// The balancer's own connection (a version 2 LOCAL, such as a health check) or a version 1 `UNKNOWN`: the
    /// connection's peer address stands.
    case local

    /// What a buffer's first bytes hold.
    public enum Reading: Equatable, Sendable {
        /// Not enough bytes yet to tell.
        case incomplete
        /// Not a PROXY header, or a malformed one: the connection is closed.
        case invalid(String)
        /// A whole header of `length` bytes.
        case header(ProxyHeader, length: Int)
    }

    /// Version 1 headers are at most 107 bytes, CRLF included.
    static let maxTextLength = 107
    /// The twelve bytes every version 2 header starts with.
    static let binarySignature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
    static let textSignature = Array("PROXY ".utf8)

    /// Reads a header at the start of `bytes` without consuming them.
    public static func read(_ bytes: ByteBuffer) -> Reading {
        let view = bytes.readableBytesView
        let prefix = Array(view.prefix(binarySignature.count))
        if binarySignature.starts(with: prefix) {
            return prefix.count < binarySignature.count ? .incomplete : readBinary(bytes)
        }
        if textSignature.starts(with: prefix.prefix(textSignature.count)) {
            return prefix.count < textSignature.count ? .incomplete : readText(bytes)
        }
        return .invalid("the connection does not start with a PROXY header")
    }

    private static func readText(_ bytes: ByteBuffer) -> Reading {
        let view = bytes.readableBytesView
        guard let lineFeed = view.prefix(maxTextLength).firstIndex(of: 0x0A) else {
            return view.count < maxTextLength ? .incomplete : .invalid("PROXY v1 header longer than 107 bytes")
        }
        let length = lineFeed - view.startIndex + 1
        let line = view[view.startIndex..<lineFeed]
        guard line.last == 0x0D else { return .invalid("PROXY v1 header not ended by CRLF") }
        let fields = String(decoding: line.dropLast(), as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 2 else { return .invalid("PROXY v1 header without a protocol") }
        switch fields[1] {
        case "UNKNOWN":
            return .header(.local, length: length)
        case "TCP4", "TCP6":
            guard fields.count == 6, fields[4].allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(fields[4]), port <= 65535,
                  let source = try? SocketAddress(ipAddress: String(fields[2]), port: port),
                  (fields[1] == "TCP4") == (source.protocol == .inet)
            else {
                return .invalid("malformed PROXY v1 \(fields[1]) header")
            }
            return .header(.proxied(source: source), length: length)
        default:
            return .invalid("PROXY v1 protocol \(fields[1]) is not TCP4, TCP6 or UNKNOWN")
        }
    }

    private static func readBinary(_ bytes: ByteBuffer) -> Reading {
        let start = bytes.readerIndex + binarySignature.count
        guard let versionAndCommand = bytes.getInteger(at: start, as: UInt8.self),
              let family = bytes.getInteger(at: start + 1, as: UInt8.self),
              let addressLength = bytes.getInteger(at: start + 2, as: UInt16.self)
        else {
            return .incomplete
        }
        guard versionAndCommand >> 4 == 2 else { return .invalid("PROXY header version \(versionAndCommand >> 4) is not 2") }
        let length = binarySignature.count + 4 + Int(addressLength)
        guard bytes.readableBytes >= length else { return .incomplete }
        switch versionAndCommand & 0x0F {
        case 0x0:
            return .header(.local, length: length)
        case 0x1:
            break
        default:
            return .invalid("PROXY v2 command \(versionAndCommand & 0x0F) is neither LOCAL nor PROXY")
        }
        let addresses = start + 4
        let addressBytes: Int
        switch family {
        case 0x11: addressBytes = 4  // TCP over IPv4
        case 0x21: addressBytes = 16  // TCP over IPv6
        case 0x00: return .header(.local, length: length)  // unspecified: the peer address stands
        default: return .invalid("PROXY v2 address family 0x\(String(family, radix: 16)) is not TCP over IPv4 or IPv6")
        }
        guard Int(addressLength) >= 2 * addressBytes + 4,
              let packed = bytes.getSlice(at: addresses, length: addressBytes),
              let port = bytes.getInteger(at: addresses + 2 * addressBytes, as: UInt16.self),
              let source = try? SocketAddress(packedIPAddress: packed, port: Int(port))
        else {
            return .invalid("PROXY v2 addresses shorter than their family needs")
        }
        return .header(.proxied(source: source), length: length)
    }
}
