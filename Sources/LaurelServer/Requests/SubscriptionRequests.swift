import LaurelJSON
import LaurelProtocol
import LaurelStore

/// SUBSCRIPTION and TRIAL.START: what the user's subscription is and entitles to, and the one trial of a user.
enum SubscriptionRequests {
    static func subscription(in context: RequestContext) async throws -> RequestOutcome {
        RequestOutcome(.object(try await context.read { try $0.subscriptionDocument() }))
    }

    /// Starts the trial and answers with the subscription it gives. The SUBSCRIPTION push stored with it reaches
    /// this instance's connections of the user at once and the other instances' through the store's event.
    static func startTrial(in context: RequestContext) async throws -> RequestOutcome {
        guard let push = try await context.transaction({ try $0.startTrial() }) else {
            throw ProtocolError.conflict("the trial was used before; it is once per user")
        }
        return RequestOutcome(.object(push.data), pushes: [push])
    }
}
