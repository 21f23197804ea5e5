import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// The template marketplace (rules.md, "Template marketplace"): TEMPLATE.PUBLISH, TEMPLATE.UNPUBLISH, MARKET and
/// TEMPLATE.INSTALL. A listing is shared data, not the author's progress, so publishing writes it directly; an install
/// is a template created through the one write path, which counts the install in the same commit.
enum MarketplaceRequests {
    static func publish(_ request: TemplatePublishRequest, in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        let progress = try await context.sessionProgress(now: now).progress
        guard let template = progress.templates.first(where: { $0.id == request.id }) else { throw ProtocolError.notFound(field: "id") }
        guard progress.subscription.isPremium(at: now) else {
            throw ProtocolError.premiumRequired(
                feature: "templates", trialAvailable: !progress.subscription.trialUsed, message: "publishing templates is a premium feature")
        }
        let name = { (id: String) -> String? in (context.catalog.builtinActivity(named: id) ?? progress.customActivity(id))?.name }
        let combo = template.combo.map { ComboDraftPart(activity: name($0.activityID) ?? $0.activityID, amount: $0.amount) }
        let listing = try await context.store.publish(
            template, activityName: name(template.activityID), combo: combo, description: request.description, author: context.user.id)
        return RequestOutcome(ListingRendering.json(listing))
    }

    static func unpublish(_ request: ListingRequest, in context: RequestContext) async throws -> RequestOutcome {
        guard try await context.store.unpublish(listing: request.listingID, author: context.user.id) else {
            throw ProtocolError.notFound(field: "listing_id")
        }
        return RequestOutcome(nil)
    }

    static func market(_ request: MarketRequest, in context: RequestContext) async throws -> RequestOutcome {
        let page = try await context.store.market(MarketQuery(
            type: request.type, activityName: request.activity, order: request.sort == .new ? .new : .popular, limit: request.limit,
            after: request.after))
        var answer: JSONObject = ["listings": .array(page.listings.map(ListingRendering.json))]
        if let next = page.next { answer["next"] = .string(next) }
        return RequestOutcome(.object(answer))
    }

    static func install(_ request: TemplateInstallRequest, in context: RequestContext) async throws -> RequestOutcome {
        guard let listing = try await context.store.listing(request.listingID) else { throw ProtocolError.notFound(field: "listing_id") }
        // A combo matches each of its activities by name; another listing its one activity, or the one asked for.
        let activity = listing.combo.isEmpty ? request.activity ?? listing.activityName : nil
        if listing.combo.isEmpty, activity == nil { throw ProtocolError.notFound(field: "activity") }
        let draft = TemplateDraft(
            activity: activity, type: listing.type, tiers: listing.tiers, name: listing.name, listingID: listing.id, combo: listing.combo)
        let performed = try await context.write(.createTemplates(draft), now: context.now)
        guard case .templates(let created) = performed.decision.outcome else { throw ProtocolError.internal() }
        return RequestOutcome(json: TemplateRendering.json(created, of: performed.decision.progress, at: context.now, single: true), pushes: performed.pushes)
    }
}

enum ListingRendering {
    /// `LISTING = {"listing_id", "name", "type", "tiers", "activity_name"?, "description", "author", "installs",
    /// "published_at", "updated_at"}`.
    static func json(_ listing: TemplateListing) -> JSONValue {
        var object: JSONObject = [
            "listing_id": .string(listing.id), "name": .string(listing.name), "type": .string(listing.type.rawValue),
            "tiers": .array(listing.tiers.map { .object($0.json) }), "description": .string(listing.description),
            "author": .string(listing.author), "installs": .int(listing.installs),
            "published_at": .string(Timestamp.format(listing.publishedAt)), "updated_at": .string(Timestamp.format(listing.updatedAt)),
        ]
        if let name = listing.activityName, listing.combo.isEmpty { object["activity_name"] = .string(name) }
        if !listing.combo.isEmpty {
            object["combo"] = .array(listing.combo.map { ["activity": .string($0.activity), "amount": .int($0.amount)] })
        }
        return .object(object)
    }
}
