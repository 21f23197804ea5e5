import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// LESSON.DONE and EVENT: facts other than logs, answered like LOG and idempotent by `id` like LOG.
enum LessonAndEventRequests {
    static func lessonDone(lesson lessonID: String, at requested: Date?, id: String?, in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        guard !context.catalog.lessons.isEmpty else {
            throw ProtocolError.invalidArgument(field: "lesson", message: "the \(context.catalog.name) catalog has no lessons")
        }
        guard let lesson = context.catalog.lesson(lessonID) else { throw ProtocolError.notFound(field: "lesson") }
        let permit = await NewFactPermit(at: requested, now: now, in: context)
        let engine = context.engine
        let (answer, pushes) = try await permit.run { try await context.write { records -> ((JSONValue, [StoredPush]), storedNew: Bool) in
            if let id, let existing = try records.lessonCompletion(id: id) {
                guard existing.lessonID == lesson.id, sameTime(existing.requestedAt, requested) else {
                    throw ProtocolError.conflict("id \"\(id)\" was used for a different lesson completion")
                }
                return ((try FactAnswer.replay(existing.response), []), false)
            }
            try permit.throwIfRefused()
            let at = requested ?? now
            let day = LocalDay(of: at, in: try records.timeZone())
            let stored = StoredLesson(
                id: id ?? UUID().uuidString.lowercased(), lessonID: lesson.id, category: lesson.category, at: at,
                day: day.description, requestedAt: requested)
            try records.insertLessonCompletion(stored)
            let evaluation = try engine.evaluate(.newLesson(LessonCompletion(lesson: lesson.id, category: lesson.category, day: day)), in: records, now: now)
            let fact: JSONValue = [
                "id": .string(stored.id), "lesson": .string(lesson.id), "at": .string(Timestamp.format(at)), "day": .string(day.description),
            ]
            let answer = FactAnswer.json(fact: fact, evaluation: evaluation)
            try records.setLessonResponse(id: stored.id, response: answer)
            return ((answer, evaluation.pushes), true)
        } }
        return RequestOutcome(answer, pushes: pushes)
    }

    static func event(name: String, at requested: Date?, id: String?, in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        guard context.catalog.eventNames.contains(name) else {
            throw ProtocolError.invalidArgument(
                field: "name", message: "accepted events are \(context.catalog.eventNames.joined(separator: ", "))")
        }
        let permit = await NewFactPermit(at: requested, now: now, in: context)
        let engine = context.engine
        let (answer, pushes) = try await permit.run { try await context.write { records -> ((JSONValue, [StoredPush]), storedNew: Bool) in
            if let id, let existing = try records.reportedEvent(id: id) {
                guard existing.name == name, sameTime(existing.requestedAt, requested) else {
                    throw ProtocolError.conflict("id \"\(id)\" was used for a different event")
                }
                return ((try FactAnswer.replay(existing.response), []), false)
            }
            try permit.throwIfRefused()
            let at = requested ?? now
            let day = LocalDay(of: at, in: try records.timeZone())
            let stored = StoredEvent(id: id ?? UUID().uuidString.lowercased(), name: name, at: at, requestedAt: requested)
            try records.insertReportedEvent(stored)
            let evaluation = try engine.evaluate(.newEvent(ReportedEvent(name: name, at: at)), in: records, now: now)
            let fact: JSONValue = [
                "id": .string(stored.id), "event": .string(name), "at": .string(Timestamp.format(at)), "day": .string(day.description),
            ]
            let answer = FactAnswer.json(fact: fact, evaluation: evaluation)
            try records.setReportedEventResponse(id: stored.id, response: answer)
            return ((answer, evaluation.pushes), true)
        } }
        return RequestOutcome(answer, pushes: pushes)
    }

    private static func sameTime(_ stored: Date?, _ requested: Date?) -> Bool {
        switch (stored, requested) {
        case (nil, nil): true
        case (let a?, let b?): abs(a.timeIntervalSince(b)) < 0.000_001
        default: false
        }
    }
}
