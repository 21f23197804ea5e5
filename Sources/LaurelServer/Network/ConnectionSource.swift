#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LaurelCore
import LaurelStore
import NIOCore
import Synchronization

/// Where a connection comes from: its peer's address, or, behind a balancer that speaks the PROXY protocol, the
/// client's address the balancer named in the connection's header. Failed AUTHs are counted against it.
final class ConnectionSource: Sendable {
    private let address: Mutex<SocketAddress?>

    init(peer: SocketAddress?) {
        address = Mutex(peer)
    }

    /// The client's address from a PROXY header.
    func proxied(_ client: SocketAddress) {
        address.withLock { $0 = client }
    }

    var current: SocketAddress? { address.withLock { $0 } }

    /// The source AUTHs from this connection count against, under `limit`; nil without a limit or an IP address.
    func guessing(limit: FailedAuthLimit?) -> GuessingSource? {
        guard let limit, let key = current.flatMap(Self.guessingKey) else { return nil }
        return GuessingSource(address: key, limit: limit)
    }

    /// The address a guesser is known by: an IPv4 address whole, an IPv6 one by its /64 network (what one host or
    /// one customer usually gets, so a guesser cannot step through its addresses), an IPv4-mapped one as IPv4.
    static func guessingKey(_ address: SocketAddress) -> String? {
        guard let text = address.ipAddress else { return nil }
        switch address.protocol {
        case .inet:
            return text
        case .inet6:
            let lowered = text.lowercased()
            if lowered.hasPrefix("::ffff:"), lowered.contains(".") { return String(text.dropFirst(7)) }
            guard case .v6(let v6) = address else { return nil }
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0.prefix(8)) }
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        default:
            return nil
        }
    }
}
