import LaurelProtocol
import NIOCore
import Testing

/// PROXY protocol headers, version 1 (text) and 2 (binary): the source address read, the header's length exact so
/// the bytes after it go on, and everything else incomplete or invalid.
@Suite struct ProxyHeaderTests {
    static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]

    static func buffer(_ bytes: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: bytes) }
    static func buffer(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    static func binary(command: UInt8 = 0x21, family: UInt8, addresses: [UInt8], tlvs: [UInt8] = []) -> [UInt8] {
        let length = addresses.count + tlvs.count
        return signature + [command, family, UInt8(length >> 8), UInt8(length & 0xFF)] + addresses + tlvs
    }

    static func isInvalid(_ reading: ProxyHeader.Reading) -> Bool {
        if case .invalid = reading { return true }
        return false
    }

    @Test func versionOneNamesTheSourceOfTCP4AndTCP6() throws {
        let four = "PROXY TCP4 203.0.113.7 10.0.0.11 51234 7420\r\n"
        #expect(ProxyHeader.read(Self.buffer(four + "a1 PING\n"))
                == .header(.proxied(source: try SocketAddress(ipAddress: "203.0.113.7", port: 51234)), length: four.utf8.count))
        let six = "PROXY TCP6 2001:db8::1 2001:db8::2 443 7420\r\n"
        #expect(ProxyHeader.read(Self.buffer(six))
                == .header(.proxied(source: try SocketAddress(ipAddress: "2001:db8::1", port: 443)), length: six.utf8.count))
        #expect(ProxyHeader.read(Self.buffer("PROXY UNKNOWN\r\n")) == .header(.local, length: 15))
        #expect(ProxyHeader.read(Self.buffer("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n")) == .header(.local, length: 35))
    }

    @Test func versionOneIsIncompleteUntilItsLineEnds() {
        for partial in ["", "P", "PROXY", "PROXY TCP4 203.0.113.7 10.0.0.11 51234 74"] {
            #expect(ProxyHeader.read(Self.buffer(partial)) == .incomplete, "\(partial)")
        }
    }

    @Test func malformedVersionOneHeadersAreInvalid() {
        let bad = [
            "a1 PING\n", "GET / HTTP/1.1\r\n", "PROXY TCP4 203.0.113.7 10.0.0.11 51234 7420\n",
            "PROXY TCP4 2001:db8::1 10.0.0.11 51234 7420\r\n", "PROXY TCP6 203.0.113.7 10.0.0.11 51234 7420\r\n",
            "PROXY TCP4 203.0.113.300 10.0.0.11 51234 7420\r\n", "PROXY TCP4 203.0.113.7 10.0.0.11 65536 7420\r\n",
            "PROXY TCP4 203.0.113.7 10.0.0.11 +80 7420\r\n", "PROXY TCP4 203.0.113.7 10.0.0.11 51234\r\n",
            "PROXY UDP4 203.0.113.7 10.0.0.11 51234 7420\r\n", "PROXY " + String(repeating: "1", count: 120),
        ]
        for text in bad { #expect(Self.isInvalid(ProxyHeader.read(Self.buffer(text))), "\(text)") }
    }

    @Test func versionTwoNamesTheSourceOfTCPOverIPv4AndIPv6() throws {
        let four = Self.binary(family: 0x11, addresses: [203, 0, 113, 7, 10, 0, 0, 11, 0xC8, 0x22, 0x1C, 0xFC])
        #expect(ProxyHeader.read(Self.buffer(four + Array("a1 PING\n".utf8)))
                == .header(.proxied(source: try SocketAddress(ipAddress: "203.0.113.7", port: 0xC822)), length: four.count))
        let source: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [1]
        let destination: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [2]
        // A TLV (PP2_TYPE_UNIQUE_ID) after the addresses belongs to the header and is skipped.
        let six = Self.binary(family: 0x21, addresses: source + destination + [0x01, 0xBB, 0x1C, 0xFC], tlvs: [0x05, 0x00, 0x02, 0xAB, 0xCD])
        #expect(ProxyHeader.read(Self.buffer(six))
                == .header(.proxied(source: try SocketAddress(ipAddress: "2001:db8::1", port: 443)), length: six.count))
    }

    @Test func versionTwoLocalAndUnspecifiedKeepThePeer() {
        let local = Self.binary(command: 0x20, family: 0x00, addresses: [])
        #expect(ProxyHeader.read(Self.buffer(local)) == .header(.local, length: 16))
        let unspecified = Self.binary(family: 0x00, addresses: [1, 2, 3])
        #expect(ProxyHeader.read(Self.buffer(unspecified)) == .header(.local, length: 19))
    }

    @Test func versionTwoIsIncompleteUntilItsLengthArrived() {
        let whole = Self.binary(family: 0x11, addresses: [203, 0, 113, 7, 10, 0, 0, 11, 0xC8, 0x22, 0x1C, 0xFC])
        for count in [1, 11, 12, 15, whole.count - 1] {
            #expect(ProxyHeader.read(Self.buffer(Array(whole.prefix(count)))) == .incomplete, "\(count) bytes")
        }
    }

    @Test func malformedVersionTwoHeadersAreInvalid() {
        let addresses: [UInt8] = [203, 0, 113, 7, 10, 0, 0, 11, 0xC8, 0x22, 0x1C, 0xFC]
        let bad = [
            Self.binary(command: 0x11, family: 0x11, addresses: addresses),  // version 1 in binary
            Self.binary(command: 0x22, family: 0x11, addresses: addresses),  // command 2
            Self.binary(family: 0x12, addresses: addresses),  // UDP over IPv4
            Self.binary(family: 0x31, addresses: addresses),  // a UNIX socket
            Self.binary(family: 0x11, addresses: Array(addresses.prefix(8))),  // too short for IPv4
            Self.binary(family: 0x21, addresses: addresses),  // too short for IPv6
        ]
        for bytes in bad { #expect(Self.isInvalid(ProxyHeader.read(Self.buffer(bytes))), "\(bytes)") }
    }
}
