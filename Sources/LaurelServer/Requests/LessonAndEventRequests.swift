import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LESSON.DONE, EVENT and REMINDER: facts other than logs, idempotent by `id` like LOG (the first two answered like
/// LOG, a reminder with its state now).
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

    static func reminder(_ request: ReminderRequest, in context: RequestContext) async throws -> RequestOutcome {
        let performed = try await context.write(.report(ReportedFact(.reminder, id: request.id, at: request.at)), now: context.now) {
            decision, _ in ReminderAnswer.bytes(for: decision)
        }
        guard let answer = performed.answer, !answer.isEmpty else { throw ProtocolError.internal("no answer for the reminder") }
        return RequestOutcome(jsonBytes: answer, pushes: performed.pushes)
    }
}
