import Foundation
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// SUBSCRIPTION and TRIAL.START: what the user's subscription is and entitles to, and the one trial of a user. The
/// subscription's rules live with its records in the store, where the operators' functions use them too.
enum SubscriptionRequests {
    static func subscription(in context: RequestContext) async throws -> RequestOutcome {
        RequestOutcome(.object(try await context.read { try $0.subscriptionDocument() }))
    }

    /// Starts the trial and answers with the subscription it gives. The SUBSCRIPTION push stored with it reaches this
    /// instance's connections of the user at once and the other instances' through the store's event.
    static func startTrial(in context: RequestContext) async throws -> RequestOutcome {
        guard let push = try await context.store.startTrial(of: context.user.id) else {
            throw ProtocolError.conflict("the trial was used before; it is once per user")
        }
        // The subscription changed: the session reads the user again before its next decision.
        context.session.progress.markBehind()
        return RequestOutcome(jsonText: push.data, pushes: [push])
    }
}
