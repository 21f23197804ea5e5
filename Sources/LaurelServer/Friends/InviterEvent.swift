import Foundation
import LaurelCore
import LaurelStore
import Logging

/// The inviter's `invite` event of an accepted code (rules.md: "the inviter gets an `invite` event as if reported", so
/// `first_invite` unlocks for a real invite): a fact of the inviter, decided and committed by the inviter's own write
/// path in the inviter's turn, with the code as its idempotency key, so that recording it twice stores it once.
///
/// It follows the acceptance instead of running inside it: the accepting user's turn is held during an acceptance,
/// and two users accepting each other's codes at once would each wait for the other's turn. An acceptance whose
/// event a stop interrupted is finished by ``finishInterrupted(at:)``, which every instance runs now and then.
struct InviterEvent {
    static let eventName = "invite"

    let services: ServerResources

    /// Records the event of `invite` (once, whatever happened before) and notes it recorded. A failure leaves it to
    /// ``finishInterrupted(at:)``.
    func record(_ invite: AcceptedInvite) async {
        do {
            if services.catalog.eventNames.contains(Self.eventName) {
                // The inviter's session here when connected here (its turn keeps the inviter's requests in order),
                // else one for this write only; a session elsewhere sees the new version and catches up.
                let session = services.registry.session(of: invite.inviter.id) ?? UserSession(user: invite.inviter)
                let context = RequestContext(user: invite.inviter, lineWriter: nil, session: session, services: services)
                let fact = ReportedFact(.event(name: Self.eventName), id: invite.code.inviterEventID, at: invite.acceptedAt)
                let outcome = try await session.inTurn { try await FactRequests.record(fact, in: context) }
                await services.registry.deliver(outcome.pushes, to: invite.inviter.id)
            }
            try await services.store.noteInviterEventRecorded(invite.code)
        } catch {
            services.logger.warning(
                "could not record an inviter's invite event yet", metadata: ["user": "\(invite.inviter.id)", "error": "\(error)"])
        }
    }

    /// Records the events of acceptances older than `ServerConfiguration.interruptedInviteEventInterval` that are still
    /// without one (their server stopped in between), oldest first.
    /// An acceptance older than the backfill window can no longer be reported (its `at` is too far back): it is noted
    /// as done with a warning rather than tried for ever in front of younger ones. Open codes that expired more than a
    /// week ago are forgotten on the way.
    func finishInterrupted(at now: Date) async throws {
        let grace = services.configuration.interruptedInviteEventInterval.inSeconds
        let waiting = try await services.store.invitesAwaitingInviterEvent(acceptedBefore: now.addingTimeInterval(-grace), limit: 100)
        let oldest = now.addingTimeInterval(-services.configuration.logTimePolicy.backfillWindow)
        for invite in waiting {
            guard invite.acceptedAt > oldest else {
                services.logger.warning(
                    "an inviter's invite event is older than the backfill window and is not recorded",
                    metadata: ["user": "\(invite.inviter.id)", "code": "\(invite.code)"])
                try await services.store.noteInviterEventRecorded(invite.code)
                continue
            }
            await record(invite)
        }
        try await services.store.forgetInvites(expiredBefore: now.addingTimeInterval(-InviteCode.validity))
    }
}
