import Foundation

/// A fact the user recorded that must reach the server exactly once, however long the device is offline: a log, a
/// lesson done, an event or a reminder shown. It gets its id and its time when it is recorded, so that sending it
/// again after a lost connection is the same fact, dated when it happened.
public enum OutboxFact: Sendable, Equatable {
    case log(activity: String, amount: Int = 1, note: String? = nil)
    case lessonDone(lesson: String)
    case event(name: String)
    case reminder
}

/// A fact waiting in the outbox: the request that stores it, ready to send as often as it takes.
public struct OutboxEntry: Codable, Sendable, Equatable, Identifiable {
    /// The fact's id (the request's `id`), made by the client.
    public var id: String
    public var verb: String
    /// The request's argument object, `id` and `at` included.
    public var argument: String
    public var recordedAt: Date

    init(fact: OutboxFact, at: Date, id: String = "c-" + UUID().uuidString.lowercased()) throws {
        self.id = id
        recordedAt = at
        let line: (verb: String, argument: any Encodable)
        switch fact {
        case .log(let activity, let amount, let note):
            line = (Verb.Log.verb, Verb.Log(activity: activity, amount: amount, at: at, id: id, note: note))
        case .lessonDone(let lesson):
            line = (Verb.LessonDone.verb, Verb.LessonDone(lesson: lesson, at: at, id: id))
        case .event(let name):
            line = (Verb.Event.verb, Verb.Event(name: name, at: at, id: id))
        case .reminder:
            line = (Verb.Reminder.verb, Verb.Reminder(at: at, id: id))
        }
        verb = line.verb
        argument = String(decoding: try WireCoding.encoder().encode(line.argument), as: UTF8.self)
    }
}

/// What became of an outbox entry.
public enum OutboxOutcome: Sendable, Equatable {
    /// Stored (or found already stored): the answer's JSON text.
    case acknowledged(OutboxEntry, answer: String)
    /// Refused for good (`invalid_argument`, `conflict`, ...): it is out of the outbox, since sending it again would
    /// be refused again.
    case rejected(OutboxEntry, LaurelClientError)
}
