@testable import LaurelServer
import LaurelCore
import LaurelStore
import NIOCore
import Testing

/// The address failed AUTHs are counted against: an IPv4 address whole, an IPv6 one by its /64 network, an
/// IPv4-mapped one as IPv4; the PROXY header's client replacing the peer.
@Suite struct ConnectionSourceTests {
    @Test func keysOfAddresses() throws {
        #expect(ConnectionSource.guessingKey(try SocketAddress(ipAddress: "203.0.113.7", port: 1)) == "203.0.113.7")
        #expect(ConnectionSource.guessingKey(try SocketAddress(ipAddress: "2001:db8:1:2:aaaa:bbbb:cccc:dddd", port: 1)) == "2001:db8:1:2::/64")
        #expect(ConnectionSource.guessingKey(try SocketAddress(ipAddress: "2001:db8:1:2::9", port: 1)) == "2001:db8:1:2::/64")
        #expect(ConnectionSource.guessingKey(try SocketAddress(ipAddress: "::ffff:198.51.100.4", port: 1)) == "198.51.100.4")
        #expect(ConnectionSource.guessingKey(try SocketAddress(unixDomainSocketPath: "/tmp/x")) == nil)
    }

    @Test func theProxiedClientReplacesThePeer() throws {
        let source = ConnectionSource(peer: try SocketAddress(ipAddress: "10.0.0.1", port: 40000))
        let limit = FailedAuthLimit()
        #expect(source.guessing(limit: limit)?.address == "10.0.0.1")
        source.proxied(try SocketAddress(ipAddress: "203.0.113.7", port: 51234))
        #expect(source.guessing(limit: limit)?.address == "203.0.113.7")
        #expect(source.guessing(limit: nil) == nil)
    }
}
