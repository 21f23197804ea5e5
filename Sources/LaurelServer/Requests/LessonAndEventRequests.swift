import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LESSON.DONE and EVENT: facts other than logs, answered like LOG and idempotent by `id` like LOG.
enum LessonAndEventRequests {
    static func lessonDone(_ request: LessonDoneRequest, in context: RequestContext) async throws -> RequestOutcome {
        let catalog = context.catalog
        guard !catalog.lessons.isEmpty else {
            throw ProtocolError.invalidArgument(field: "lesson", message: "the \(catalog.name) catalog has no lessons")
        }
        guard let lesson = catalog.lesson(request.lesson) else { throw ProtocolError.notFound(field: "lesson") }
        return try await FactRequests.record(ReportedFact(.lesson(lesson), id: request.id, at: request.at), in: context)
    }

    static func event(_ request: EventRequest, in context: RequestContext) async throws -> RequestOutcome {
        let names = context.catalog.eventNames
        guard names.contains(request.name) else {
            throw ProtocolError.invalidArgument(field: "name", message: "accepted events are \(names.joined(separator: ", "))")
        }
        return try await FactRequests.record(ReportedFact(.event(name: request.name), id: request.id, at: request.at), in: context)
    }
}
