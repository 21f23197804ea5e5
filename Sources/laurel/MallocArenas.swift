#if canImport(Glibc)
import Glibc
#endif

/// How many malloc arenas the server's threads share. glibc gives each busy thread an arena of its own (up to
/// eight per core); the memory a connection keeps is then spread over many half-empty arenas, which made an idle
/// connection cost about 17 KB instead of 15 KB with two arenas, at no measurable cost in LOG throughput (see
/// docs/load.md). An operator's `MALLOC_ARENA_MAX` wins.
enum MallocArenas {
    static let serverDefault: Int32 = 2

    static func limitUnlessConfigured() {
        #if canImport(Glibc)
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = mallopt(arenaMaxParameter, serverDefault)
        #endif
    }

    #if canImport(Glibc)
    /// `M_ARENA_MAX` of <malloc.h>, which the Glibc module does not import.
    private static let arenaMaxParameter: Int32 = -8
    #endif
}

#if canImport(Glibc)
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
