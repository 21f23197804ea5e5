import CoreMetrics
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import ServiceLifecycle
import Synchronization

/// The Laurel TCP server as a lifecycle service: it accepts connections, runs each one's request loop as a child
/// task, reacts to the store's events (revoked tokens, deleted users), and on graceful shutdown stops accepting,
/// lets every connection answer what it has received, says `BYE` and returns.
public final class LaurelServer: Service, Sendable {
    private let services: ServerResources
    private let storeEvents: AsyncStream<[StoreEvent]>
    private let onListening: @Sendable (SocketAddress) -> Void
    private let onWebSocketListening: @Sendable (SocketAddress) -> Void
    private let shuttingDown = Atomic<Bool>(false)
    private let nextConnectionID = Atomic<UInt64>(1)

    public init(
        configuration: ServerConfiguration, store: any LaurelStore, catalog: Catalog,
        storeEvents: AsyncStream<[StoreEvent]>, metrics: ServerMetrics = ServerMetrics(), logger: Logger,
        onListening: @escaping @Sendable (SocketAddress) -> Void = { _ in },
        onWebSocketListening: @escaping @Sendable (SocketAddress) -> Void = { _ in }
    ) {
        self.services = ServerResources(configuration: configuration, store: store, catalog: catalog, metrics: metrics, logger: logger)
        self.storeEvents = storeEvents
        self.onListening = onListening
        self.onWebSocketListening = onWebSocketListening
    }

    public func run() async throws {
        let configuration = services.configuration
        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: configuration.outboundWaterMark)
            // Each connection keeps its receive buffer between reads. Requests are short lines, so it starts small
            // (NIO's default is 2 KB, a fifth of an idle connection's cost) and grows only for a client that sends
            // more per read.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
            .bind(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    let source = try AcceptedConnection.readSource(of: channel, configuration: configuration)
                    if let tls = configuration.tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    try pipeline.addHandler(LineFrameHandler(maxLineBytes: configuration.maxLineBytes))
                    return try AcceptedConnection(channel, framing: .lineFeed, source: source, configuration: configuration)
                }
            }
        // A quiescing helper follows one server channel: the WebSocket endpoint has its own.
        let webSocketQuiescing = ServerQuiescingHelper(group: group)
        let webSockets = try await configuration.webSocketPort.asyncMap { port in
            try await WebSocketEntrance.bind(configuration, port: port, quiescing: webSocketQuiescing)
        }
        // Both bound before either is announced: whoever hears "listening" can use both.
        if let address = webSockets?.channel.localAddress {
            services.logger.info("WebSocket endpoint at \(configuration.tls == nil ? "ws" : "wss")://\(configuration.host):\(address.port ?? 0)/")
            onWebSocketListening(address)
        }
        if let address = listener.channel.localAddress {
            services.logger.info("listening on \(configuration.host):\(address.port ?? configuration.port)\(configuration.tls == nil ? "" : " (TLS)")")
            onListening(address)
        }
        try await withThrowingTaskGroup(of: Void.self) { background in
            background.addTask { await self.followStoreEvents() }
            background.addTask { await self.refreshRarity() }
            background.addTask { await self.finishInterruptedInviterEvents() }
            background.addTask { await self.rankEndedWeeks() }
            background.addTask { await self.refreshLoadedBoards() }
            if let limit = configuration.failedAuthLimit {
                background.addTask { await self.forgetWholeAuthAllowances(limit: limit) }
            }
            try await withGracefulShutdownHandler {
                try await withThrowingDiscardingTaskGroup { connections in
                    if let webSockets {
                        connections.addTask { try await self.acceptWebSockets(webSockets) }
                    }
                    try await listener.executeThenClose { accepted in
                        for try await connection in accepted {
                            connections.addTask { await self.serve(connection) }
                        }
                    }
                }
            } onGracefulShutdown: {
                self.shuttingDown.store(true, ordering: .relaxed)
                quiescing.initiateShutdown(promise: nil)
                if webSockets != nil { webSocketQuiescing.initiateShutdown(promise: nil) }
            }
            // Every connection has finished: nothing is left to hear about.
            background.cancelAll()
        }
    }

    /// Serves each upgraded WebSocket connection like a TCP one, until the endpoint closes.
    private func acceptWebSockets(_ webSockets: NIOAsyncChannel<EventLoopFuture<WebSocketEntrance.Outcome>, Never>) async throws {
        try await withThrowingDiscardingTaskGroup { connections in
            try await webSockets.executeThenClose { upgrades in
                for try await upgrade in upgrades {
                    connections.addTask {
                        // A failed handshake is the client's business; the connection is already closed.
                        guard case .connection(let accepted) = try? await upgrade.get() else { return }
                        await self.serve(accepted)
                    }
                }
            }
        }
    }

    private func serve(_ accepted: AcceptedConnection) async {
        let channel = accepted.channel
        let metrics = services.metrics
        let open = metrics.connectionOpened()
        defer { metrics.connectionClosed() }
        if open > services.configuration.maxConnections {
            metrics.connectionsRefused.increment()
            try? await accepted.executeThenClose { _ in
                try await channel.writeAndFlush(accepted.framing.framed(OutboundLine.push(kind: "BYE", ["reason": "too_many_connections"])))
            }
            return
        }
        metrics.connectionsAccepted.increment()
        let id = ConnectionID(rawValue: nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue)
        await ClientConnection(
            id: id, connection: accepted, services: services,
            isShuttingDown: { self.shuttingDown.load(ordering: .relaxed) }
        ).run()
    }

    private func followStoreEvents() async {
        for await events in storeEvents {
            for event in events { await follow(event) }
        }
    }

    private func follow(_ event: StoreEvent) async {
        switch event {
        case .tokensRevoked(let user):
            await services.registry.closeConnections(of: user, reason: "token_revoked")
        case .userDeleted(let user):
            services.boards.forget(user)
            await services.registry.closeConnections(of: user, reason: "account_deleted")
        case .committed(let user, let version, let lastSeq, let change, let pushes):
            services.boards.heard(user, version: version)
            // Only a user with a session here has connections here.
            guard let session = services.registry.session(of: user) else { return }
            if let change, session.progress.add(change, version: version, lastSeq: lastSeq) {
                services.metrics.countAnnouncedChangeAdded()
            }
            // Only a write that stored pushes can leave connections here behind (most LOGs store none).
            guard session.progress.noteCommitted(version: version, lastSeq: lastSeq) else { return }
            services.pushDelivery.announce(user, through: lastSeq, pushes: pushes)
        case .instanceElsewhere(let greeting):
            services.noteInstanceElsewhere(greeting: greeting)
            if greeting { announcePresence(greeting: false) }
        case .resumed:
            services.metrics.storeEventResumes.increment()
            // Whatever was missed, the other instances hear of this one (and it of them, from their answers).
            announcePresence(greeting: true)
            services.boards.readEverythingAgain()
            await compareConnectedUsersWithStore()
        }
    }

    /// Tells the other instances that this one runs, in the background: the store's events go on meanwhile.
    private func announcePresence(greeting: Bool) {
        let services = services
        Task {
            do {
                try await services.store.announcePresence(greeting: greeting)
            } catch {
                services.logger.warning("could not tell the other instances of this one", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Reads achievements' rarity now and then again every `rarityRefreshInterval`, until the server stops. A failed
    /// reading keeps the last one.
    private func refreshRarity() async {
        while !Task.isCancelled {
            do {
                services.rarity.replace(with: try await services.store.achievementRarity())
            } catch {
                services.logger.warning("could not read achievements' rarity", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: services.configuration.rarityRefreshInterval)
        }
    }

    /// Once a minute, forgets the source addresses whose failed-AUTH allowance is whole again, so the table holds only
    /// the sources that failed lately (every instance does it; a second deletion finds nothing).
    private func forgetWholeAuthAllowances(limit: FailedAuthLimit) async {
        while (try? await Task.sleep(for: .seconds(60))) != nil {
            do {
                try await services.store.forgetWholeAuthAllowances(at: services.configuration.clock.now, limit: limit)
            } catch {
                services.logger.warning("could not forget whole AUTH allowances", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Keeps the board keys held in memory up to date (`boardRefreshInterval`), until the server stops.
    private func refreshLoadedBoards() async {
        let configuration = services.configuration
        while (try? await Task.sleep(for: configuration.boardRefreshInterval)) != nil {
            await services.boards.refresh(idleLifetime: configuration.idleBoardLifetime, reloadAfter: configuration.boardReloadInterval)
        }
    }

    /// Now and then (`weekRankingCheckInterval`), ranks the ended weeks the catalog's comparative goals read.
    private func rankEndedWeeks() async {
        let ranking = WeekRanking(services: services)
        guard ranking.isNeeded else { return }
        repeat {
            do {
                try await ranking.rankDue(at: services.configuration.clock.now)
            } catch where !Task.isCancelled {
                services.logger.warning("could not rank ended weeks", metadata: ["error": "\(error)"])
            } catch {
                return
            }
        } while (try? await Task.sleep(for: services.configuration.weekRankingCheckInterval)) != nil
    }

    /// Now and then (`interruptedInviteEventInterval`), records the inviter's `invite` event of acceptances whose
    /// server stopped before recording it.
    private func finishInterruptedInviterEvents() async {
        while (try? await Task.sleep(for: services.configuration.interruptedInviteEventInterval)) != nil {
            do {
                try await InviterEvent(services: services).finishInterrupted(at: services.configuration.clock.now)
            } catch {
                services.logger.warning("could not look for interrupted invite events", metadata: ["error": "\(error)"])
            }
        }
    }

    /// After the store's events were interrupted, does for every connected user what the events missed would have
    /// done (``ServerResources/compareWithStore(_:)``). (Revoked tokens are not seen here: a revocation names no
    /// connection, and the next AUTH with such a token fails.)
    private func compareConnectedUsersWithStore() async {
        let users = services.registry.connectedUsers
        guard !users.isEmpty else { return }
        // When the database cannot be reached for it, the listener reconnects once more and this runs again then.
        await services.compareWithStore(users)
    }
}

/// A connection as the listener hands it over: its channel, the frames it reads, and where its lifecycle notes why
/// it ended it.
struct AcceptedConnection: Sendable {
    let channel: any Channel
    let frames: InboundFrames
    let framing: LineFraming
    let expiry: ConnectionExpiry
    let source: ConnectionSource
    /// Whether the connection's lines may still go out (its writer's, and its request loop's, view of the channel).
    let gate: LineGate

    /// Begins a connection's pipeline: the client's address is the peer's, or with `--proxy-protocol` the one the
    /// balancer's header names (read first, before TLS).
    static func readSource(of channel: any Channel, configuration: ServerConfiguration) throws -> ConnectionSource {
        let source = ConnectionSource(peer: channel.remoteAddress)
        if configuration.proxyProtocol { try channel.pipeline.syncOperations.addHandler(ProxyHeaderHandler(source: source)) }
        return source
    }

    /// Ends a connection's pipeline, whatever carries its lines (TCP, WebSocket): its lifecycle, and the frames the
    /// connection loop reads, no further than `maxRequestsInFlight` ahead. The loop writes its lines to the channel.
    init(_ channel: any Channel, framing: LineFraming, source: ConnectionSource, configuration: ServerConfiguration) throws {
        self.source = source
        self.framing = framing
        let expiry = ConnectionExpiry()
        try channel.pipeline.syncOperations.addHandler(ConnectionLifecycleHandler(
            authTimeout: configuration.authTimeout, idleTimeout: configuration.idleTimeout, expiry: expiry))
        let inFlight = configuration.maxRequestsInFlight
        let gate = LineGate()
        let (handler, frames) = InboundFrameHandler.make(
            on: channel.eventLoop, lowWatermark: max(1, inFlight / 2), highWatermark: inFlight, gate: gate)
        try channel.pipeline.syncOperations.addHandler(handler)
        self.gate = gate
        self.channel = channel
        self.frames = frames
        self.expiry = expiry
    }

    /// Runs `body` with the connection's frames, then closes the connection and waits until it is closed.
    func executeThenClose<Result>(_ body: (InboundFrames) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(frames)
        } catch {
            try? await channel.close()
            throw error
        }
        channel.close(promise: nil)
        try? await channel.closeFuture.get()
        return result
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
