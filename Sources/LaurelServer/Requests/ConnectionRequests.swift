import CoreMetrics
import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore
import Logging
import NIOCore

/// AUTH, PING and QUIT: the verbs of the connection itself, usable before it is authenticated.
enum ConnectionRequests {
    static func ping(_: NoArguments, _ call: ConnectionCall) async throws -> RequestOutcome {
        RequestOutcome(["time": .string(Timestamp.format(call.services.configuration.clock.now))])
    }

    static func quit(_: NoArguments, _ call: ConnectionCall) async throws -> RequestOutcome {
        RequestOutcome(nil, closeReason: "quit")
    }

    /// AUTH is all or nothing: it answers `OK` with the connection attached to the user's session, or an error
    /// with nothing attached. Pushes the connection missed are replayed after the `OK`; catching the user's
    /// progress up with the days that passed follows the answer and never answers again.
    static func authenticate(_ auth: AuthRequest, _ call: ConnectionCall) async throws -> RequestOutcome {
        let (services, lineWriter) = (call.services, call.lineWriter)
        guard call.state.context == nil else { throw ProtocolError.conflict("this connection is already authenticated") }
        let user: AuthenticatedUser
        let guessing = call.source.guessing(limit: services.configuration.failedAuthLimit)
        switch try await services.store.authenticate(token: auth.token, from: guessing, at: services.configuration.clock.now) {
        case .authenticated(let authenticated):
            user = authenticated
        case .unknownToken:
            call.state.failedAuths += 1
            throw ProtocolError.authFailed()
        case .refused(let wait):
            services.metrics.authRefusals.increment()
            throw ProtocolError.rateLimited(retryAfterMs: wait, message: "too many failed AUTHs from this address")
        }
        call.state.failedAuths = 0
        // Hold live pushes until the answer (and any replay) is written, so every push arrives once, in order.
        await lineWriter.beginReplay(after: Int64(auth.resumeAfter ?? 0))
        let store = services.store
        await lineWriter.readMissedPushes { after in
            (try? await store.read(user: user.id) { try $0.pushes(after: after, limit: 1000) }) ?? []
        }
        let session = services.registry.attach(lineWriter, to: user)
        let context = RequestContext(user: user, lineWriter: lineWriter, session: session, services: services)
        let answer: JSONObject
        let replay: @Sendable () async -> Void
        do {
            // The session's progress (loaded here unless another connection of the user already holds it) answers
            // the AUTH and is ready for the first LOG.
            let now = context.now
            let held = try await context.sessionProgress(now: now)
            var lastSeq = held.position.lastSeq
            var missed: [StoredPush] = []
            if let resumeAfter = auth.resumeAfter.map(Int64.init) {
                (lastSeq, missed) = try await context.read { reader in
                    (try reader.lastPushSeq(), try reader.pushes(after: resumeAfter, limit: Int.max))
                }
            }
            answer = [
                "user": .string(user.name), "user_id": .string(user.id.description), "tier": .string(held.progress.subscription.tier(at: now)),
                "time_zone": .string(held.progress.settings.timeZone), "last_seq": .int(Int(lastSeq)),
            ]
            // What the days that passed, or a catalog change, mean for the user: written only when it changes something.
            let evaluator = ProgressEvaluator(rules: services.rules, user: user.id)
            var caughtUpAlready = true
            if case .decided(let decision) = evaluator.evaluate(.catchUp, on: held.shared, now: now) {
                caughtUpAlready = decision.storesNothing
            }
            let resumes = auth.resumeAfter != nil
            replay = { [lastSeq, missed, caughtUpAlready] in
                if !resumes { await lineWriter.skip(through: lastSeq) }
                await lineWriter.finishReplay(missed)
                if !caughtUpAlready { await catchUp(context) }
            }
        } catch {
            services.registry.detach(call.connection, from: user.id)
            await lineWriter.abandonReplay()
            throw error
        }
        call.state.context = context
        call.channel.pipeline.fireUserInboundEventTriggered(ConnectionLifecycleHandler.Authenticated())
        var outcome = RequestOutcome(.object(answer))
        outcome.followUp = replay
        return outcome
    }

    /// Writes what catalog additions and the days that passed mean for the user (unlocks, a broken streak). A
    /// failure is logged: the next request or AUTH tries again.
    private static func catchUp(_ context: RequestContext) async {
        do {
            let performed = try await context.session.inTurn { try await context.write(.catchUp, now: context.now) }
            await context.services.registry.deliver(performed.pushes, to: context.user.id)
        } catch {
            context.services.logger.warning("catching up at AUTH failed", metadata: ["user": "\(context.user.id)", "error": "\(error)"])
        }
    }
}
