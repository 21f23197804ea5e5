// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The request path (server, store protocols, PostgreSQL store) runs its nonisolated async functions on the caller's
/// executor (Swift 6.2's `nonisolated(nonsending)` by default) instead of switching to the global executor on entry
/// and after every suspension: 33 executor switches a LOG before, 22 after (each reads the task's status with a
/// locked 16-byte compare-and-swap, 3.3 % of the server's CPU in the closed loop before, 1.3 % after).
let requestPath: [SwiftSetting] = strict + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "laurel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "laurel", targets: ["laurel"]),
        .executable(name: "laurel-load", targets: ["laurel-load"]),
        .library(name: "LaurelClient", targets: ["LaurelClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        // libpq, found with pkg-config (Debian: libpq-dev).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),

        // JSON values, a strict parser and a compact writer; shared by the codec, catalogs and stored pushes.
        .target(name: "LaurelJSON", swiftSettings: strict),

        // The pure core: domain model and rules. No I/O, no NIO, no libpq.
        .target(name: "LaurelCore", dependencies: ["LaurelJSON"], swiftSettings: strict),

        // The wire protocol: framing, typed requests, responses and pushes.
        .target(
            name: "LaurelProtocol",
            dependencies: ["LaurelCore", "LaurelJSON", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict
        ),

        // What the server needs from storage, as protocols and records; no database here.
        .target(name: "LaurelStore", dependencies: ["LaurelCore", "LaurelJSON"], swiftSettings: requestPath),

        // PostgreSQL through libpq: connections on threads of their own, a pool, migrations, the store.
        .target(
            name: "LaurelPostgres",
            dependencies: [
                "CLibPQ", "LaurelCore", "LaurelJSON", "LaurelStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: requestPath
        ),

        // The client library for apps: a connection that stays, typed requests and pushes, an outbox of facts.
        .target(
            name: "LaurelClient",
            dependencies: [
                "LaurelProtocol", "LaurelJSON",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),

        // The TCP server: connections, sessions, user actors, pushes.
        .target(
            name: "LaurelServer",
            dependencies: [
                "LaurelCore", "LaurelProtocol", "LaurelStore", "LaurelJSON",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Catalogs")],
            swiftSettings: requestPath
        ),

        .executableTarget(
            name: "laurel",
            dependencies: [
                "LaurelServer", "LaurelPostgres", "LaurelCore",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "laurel-load",
            dependencies: [
                "LaurelCore", "LaurelProtocol", "LaurelPostgres", "LaurelJSON", "LaurelClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),

        // What every test target shares: the seeded random generator property and fuzz tests replay from.
        .target(name: "LaurelTestSupport", path: "Tests/LaurelTestSupport", swiftSettings: strict),

        .testTarget(name: "LaurelCoreTests", dependencies: ["LaurelCore", "LaurelJSON", "LaurelTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "LaurelProtocolTests",
            dependencies: [
                "LaurelProtocol", "LaurelJSON", "LaurelCore", "LaurelTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The store's pure parts without a database: group commit's bookkeeping, the commit's encoding, events.
        .testTarget(
            name: "LaurelPostgresTests",
            dependencies: [
                "LaurelPostgres", "LaurelStore", "LaurelCore", "LaurelJSON", "LaurelTestSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict),
        // The server's parts that need no socket or database: rendering, the authentication gate, session progress, the
        // handlers of a connection's pipeline (on an embedded channel).
        .testTarget(
            name: "LaurelServerTests",
            dependencies: [
                "LaurelServer", "LaurelStore", "LaurelCore", "LaurelJSON", "LaurelProtocol", "LaurelTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict),
        // The load client's pure parts: its pacing and what it reports.
        .testTarget(
            name: "LaurelLoadTests",
            dependencies: [
                "laurel-load",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LaurelIntegrationTests",
            dependencies: [
                "LaurelServer", "LaurelPostgres", "LaurelProtocol", "LaurelCore", "LaurelStore", "LaurelJSON", "LaurelTestSupport", "LaurelClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Reads the deployment files (Compose, Dockerfile, systemd unit, HAProxy) and checks that they hold together.
        .testTarget(
            name: "LaurelDeployTests", dependencies: [.product(name: "Yams", package: "Yams")], swiftSettings: strict),
    ]
)
