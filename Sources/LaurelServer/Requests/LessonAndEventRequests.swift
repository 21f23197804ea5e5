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
        return try await FactFlow.record(LessonReport(request: request, lesson: lesson), in: context)
    }

    static func event(_ request: EventRequest, in context: RequestContext) async throws -> RequestOutcome {
        let names = context.catalog.eventNames
        guard names.contains(request.name) else {
            throw ProtocolError.invalidArgument(field: "name", message: "accepted events are \(names.joined(separator: ", "))")
        }
        return try await FactFlow.record(request, in: context)
    }
}

/// A LESSON.DONE whose lesson the catalog has.
struct LessonReport: ReportedFact {
    static let noun = "lesson completion"
    let request: LessonDoneRequest
    let lesson: Catalog.Lesson

    var id: String? { request.id }
    var at: Date? { request.at }

    func earlierReport(id: String, in records: any UserRecords, catalog: Catalog) throws -> EarlierReport? {
        guard let existing = try records.lessonCompletion(id: id) else { return nil }
        return EarlierReport(isSameFact: existing.lessonID == lesson.id && sameTime(as: existing.requestedAt), answer: existing.response)
    }

    func store(now: Date, in records: any UserRecords, catalog: Catalog) throws -> NewReport {
        let at = self.at ?? now
        let day = LocalDay(of: at, in: try records.timeZone())
        let stored = StoredLesson(
            id: id ?? UUID().uuidString.lowercased(), lessonID: lesson.id, category: lesson.category, at: at,
            day: day, requestedAt: self.at)
        try records.insertLessonCompletion(stored)
        let json: JSONValue = [
            "id": .string(stored.id), "lesson": .string(lesson.id), "at": .string(Timestamp.format(at)), "day": .string(day.description),
        ]
        return NewReport(id: stored.id, change: .newLesson(LessonCompletion(lesson: lesson.id, category: lesson.category, day: day)), json: json)
    }

    static func keepAnswer(_ answer: JSONValue, id: String, in records: any UserRecords) throws {
        try records.setLessonResponse(id: id, response: answer)
    }
}

extension EventRequest: ReportedFact {
    static let noun = "event"

    func earlierReport(id: String, in records: any UserRecords, catalog: Catalog) throws -> EarlierReport? {
        guard let existing = try records.reportedEvent(id: id) else { return nil }
        return EarlierReport(isSameFact: existing.name == name && sameTime(as: existing.requestedAt), answer: existing.response)
    }

    func store(now: Date, in records: any UserRecords, catalog: Catalog) throws -> NewReport {
        let at = self.at ?? now
        let day = LocalDay(of: at, in: try records.timeZone())
        let stored = StoredEvent(id: id ?? UUID().uuidString.lowercased(), name: name, at: at, requestedAt: self.at)
        try records.insertReportedEvent(stored)
        let json: JSONValue = [
            "id": .string(stored.id), "event": .string(name), "at": .string(Timestamp.format(at)), "day": .string(day.description),
        ]
        return NewReport(id: stored.id, change: .newEvent(ReportedEvent(name: name, at: at)), json: json)
    }

    static func keepAnswer(_ answer: JSONValue, id: String, in records: any UserRecords) throws {
        try records.setReportedEventResponse(id: id, response: answer)
    }
}
