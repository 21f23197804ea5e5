import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A client that sends and never reads, on a plain non-blocking socket with a small receive buffer: what a
/// misbehaving or stalled device looks like to the server. Sending never blocks a test thread.
final class UnreadingClient: Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `text`, waiting (without blocking a thread) while the socket is full; false once the server
    /// closed the connection.
    func send(_ text: String) async -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if sent > 0 {
                bytes = bytes.dropFirst(sent)
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try? await Task.sleep(for: .milliseconds(2))
            } else {
                return false
            }
        }
        return true
    }

    /// Reads (and throws away) what the server sent until it closed the connection; false if it is still open
    /// after `timeout`.
    func drainUntilClosed(timeout: Duration = .seconds(20)) async -> Bool {
        let end = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < end {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 { return true }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    try? await Task.sleep(for: .milliseconds(5))
                    continue
                }
                return true  // reset by the server
            }
        }
        return false
    }

    /// Closes the connection at once, whatever is unread.
    func abort() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
