#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and collects what it printed (standard output and error together), with
/// posix_spawn and waitpid. Foundation's Process waits by spinning a run loop, which does not reliably notice a
/// child's exit when called from an async context; this does no such thing.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw Failure(description: "cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: chunk[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }
}
