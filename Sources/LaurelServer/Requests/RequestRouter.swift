import LaurelCore
import LaurelJSON
import LaurelProtocol

/// Sends each authenticated request to the handler of its verb. AUTH, PING and QUIT are the connection's own
/// business (see `ClientConnection`).
enum RequestRouter {
    static func route(_ request: Request, in context: RequestContext) async throws -> RequestOutcome {
        switch request {
        case .activities(let list):
            return try await ActivityRequests.list(includeDeleted: list.includeDeleted, in: context)
        case .activityCreate(let create):
            return try await ActivityRequests.create(name: create.name, unit: create.unit, icon: create.icon, in: context)
        case .activityDelete(let target):
            return try await ActivityRequests.setDeleted(target.id, deleted: true, in: context)
        case .activityRestore(let target):
            return try await ActivityRequests.setDeleted(target.id, deleted: false, in: context)
        case .log(let log):
            let draft = LogRequests.Draft(activity: log.activity, amount: log.amount, at: log.at, id: log.id, note: log.note)
            return try await LogRequests.log(draft, in: context)
        case .logDelete(let target):
            return try await LogRequests.delete(id: target.id, in: context)
        case .logs(let query):
            return try await LogRequests.list(
                activity: query.activity, from: query.from?.description, to: query.to?.description, limit: query.limit,
                before: query.before, in: context)
        case .settings(let change):
            var restDay: Weekday??
            if case .set(let day) = change.restDay { restDay = .some(day) }
            return try await AccountRequests.settings(
                .init(timeZone: change.timeZone, restDay: restDay, vacation: change.vacation), in: context)
        case .profile:
            return try await AccountRequests.profile(in: context)
        case .notifications(let page):
            return try await AccountRequests.notifications(after: Int64(page.after ?? 0), limit: page.limit, in: context)
        case .lessonDone(let lesson):
            return try await LessonAndEventRequests.lessonDone(lesson: lesson.lesson, at: lesson.at, id: lesson.id, in: context)
        case .event(let event):
            return try await LessonAndEventRequests.event(name: event.name, at: event.at, id: event.id, in: context)
        case .achievements(let filters):
            return try await AchievementRequests.list(filters, in: context)
        case .achievement(let target):
            return try await AchievementRequests.one(id: target.id, in: context)
        case .subscription:
            return try await SubscriptionRequests.subscription(in: context)
        case .trialStart:
            return try await SubscriptionRequests.startTrial(in: context)
        case .auth, .ping, .quit:
            throw ProtocolError.internal()
        case .presets:
            return TemplateRequests.presets()
        case .templates(let filter):
            return try await TemplateRequests.list(activity: filter.activity, in: context)
        case .templateCreate(let create):
            return try await TemplateRequests.create(create, in: context)
        case .templateUpdate(let update):
            return try await TemplateRequests.update(update, in: context)
        case .templateDelete(let target):
            return try await TemplateRequests.delete(id: target.id, in: context)
        case .templateExport(let export):
            return try await TemplateTransferRequests.export(ids: export.ids, in: context)
        case .templateImport(let document):
            return try await TemplateTransferRequests.importDocument(document.document, in: context)
        case .accountExport:
            return try await AccountRequests.export(in: context)
        case .accountDelete(let confirmation):
            return try await AccountRequests.delete(confirm: confirmation.confirm, in: context)
        case .challenges:
            throw ProtocolError(code: .internal, message: "\(request.verb.rawValue) is not available in this version yet")
        }
    }
}
