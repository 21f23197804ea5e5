import LaurelCore
import Foundation
import LaurelJSON

/// `LOG {"activity", "amount"?, "at"?, "id"?, "note"?}`: record that the user did an activity.
public struct LogRequest: RequestArguments, Hashable {
    /// The accepted range of `amount` (rules.md, "Limits and validation").
    public static let amountRange = 1...100_000

    /// The activity's id or name (case-insensitive), trimmed, 1 to 128 characters.
    public var activity: String
    /// How much was done, an integer in ``amountRange``; 1 when not given.
    public var amount: Int
    /// When it was done; the server uses the current time when not given. The window is checked later.
    public var at: Date?
    /// The client's idempotency key, 1 to 128 characters, taken exactly as sent.
    public var id: String?
    /// A note of at most 1000 characters; tabs and line breaks allowed, other control characters not.
    public var note: String?

    public init(activity: String, amount: Int = 1, at: Date? = nil, id: String? = nil, note: String? = nil) {
        self.activity = activity
        self.amount = amount
        self.at = at
        self.id = id
        self.note = note
    }

    public init(line: RequestLine) throws(ProtocolError) {
        if let log = line.log {
            self = log
        } else {
            try self.init(argument: line.argument)
        }
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["activity", "amount", "at", "id", "note"])
        activity = try fields.required(fields.string("activity", .activityReference), "activity")
        amount = try fields.integer("amount", in: Self.amountRange) ?? 1
        at = try fields.timestamp("at")
        id = try fields.string("id", .identifier)
        note = try fields.string("note", .note)
    }

    /// The same rules as ``init(argument:)``, for fields ``LogArgumentScanner`` read as printable ASCII (the bytes
    /// between their quotes); nil wherever that init would refuse, so that it is the one to say why.
    init?(
        scannedActivity activity: UnsafeBufferPointer<UInt8>?, amount: Int?, at: UnsafeBufferPointer<UInt8>?,
        id: UnsafeBufferPointer<UInt8>?, note: UnsafeBufferPointer<UInt8>?
    ) {
        guard let activity = activity.flatMap(TextRule.activityReference.apply(toPrintableASCII:)) else { return nil }
        if let amount, !Self.amountRange.contains(amount) { return nil }
        self.init(activity: activity, amount: amount ?? 1)
        if let at {
            guard let date = Timestamp.parse(String(decoding: at, as: UTF8.self)) else { return nil }
            self.at = date
        }
        if let id {
            guard let checked = TextRule.identifier.apply(toPrintableASCII: id) else { return nil }
            self.id = checked
        }
        if let note {
            guard let checked = TextRule.note.apply(toPrintableASCII: note) else { return nil }
            self.note = checked
        }
    }
}

/// `LOGS {"activity"?, "from"?, "to"?, "limit"?, "before"?}`: a page of logs, newest first.
public struct LogsRequest: RequestArguments, Hashable {
    /// The largest page a request may ask for.
    public static let maximumLimit = 1000
    public static let defaultLimit = 100

    /// Only logs of this activity (id or name), trimmed, 1 to 128 characters.
    public var activity: String?
    /// Only logs on or after this local day.
    public var from: LocalDay?
    /// Only logs on or before this local day; not before `from`.
    public var to: LocalDay?
    /// At most this many logs, 1 to ``maximumLimit``; 100 when not given.
    public var limit: Int
    /// The `next` cursor of the previous page: an opaque string of 1 to 128 characters.
    public var before: String?

    public init(
        activity: String? = nil, from: LocalDay? = nil, to: LocalDay? = nil,
        limit: Int = LogsRequest.defaultLimit, before: String? = nil
    ) {
        self.activity = activity
        self.from = from
        self.to = to
        self.limit = limit
        self.before = before
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["activity", "from", "to", "limit", "before"])
        activity = try fields.string("activity", .activityReference)
        from = try fields.date("from")
        to = try fields.date("to")
        limit = try fields.integer("limit", in: 1...Self.maximumLimit) ?? Self.defaultLimit
        before = try fields.string("before", .identifier)
        if let from, let to, to < from {
            throw .invalidArgument(field: "to", message: "to must not be before from")
        }
    }
}

/// `LESSON.DONE {"lesson", "at"?, "id"?}`: a lesson of the catalog was completed; answered like LOG.
public struct LessonDoneRequest: RequestArguments, Hashable {
    /// The lesson's id in the catalog, trimmed, 1 to 64 characters.
    public var lesson: String
    /// When it was completed; now when not given.
    public var at: Date?
    /// The client's idempotency key, 1 to 128 characters.
    public var id: String?

    public init(lesson: String, at: Date? = nil, id: String? = nil) {
        self.lesson = lesson
        self.at = at
        self.id = id
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["lesson", "at", "id"])
        lesson = try fields.required(fields.string("lesson", .name), "lesson")
        at = try fields.timestamp("at")
        id = try fields.string("id", .identifier)
    }
}

/// `REMINDER {"at"?, "id"?}`: a reminder the app showed the user; `at` and `id` follow LOG's rules.
public struct ReminderRequest: RequestArguments, Hashable {
    /// When it was shown; now when not given.
    public var at: Date?
    /// The client's idempotency key, 1 to 128 characters.
    public var id: String?

    public init(at: Date? = nil, id: String? = nil) {
        self.at = at
        self.id = id
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["at", "id"])
        at = try fields.timestamp("at")
        id = try fields.string("id", .identifier)
    }
}

/// `EVENT {"name", "at"?, "id"?}`: a client-reported social event (`share`, `invite`); answered like LOG.
public struct EventRequest: RequestArguments, Hashable {
    /// The event's name, trimmed, 1 to 64 characters; whether the catalog accepts it is checked later.
    public var name: String
    /// When it happened; now when not given.
    public var at: Date?
    /// The client's idempotency key, 1 to 128 characters.
    public var id: String?

    public init(name: String, at: Date? = nil, id: String? = nil) {
        self.name = name
        self.at = at
        self.id = id
    }

    public init(argument: JSONObject?) throws(ProtocolError) {
        let fields = try ArgumentReader(argument, fields: ["name", "at", "id"])
        name = try fields.required(fields.string("name", .name), "name")
        at = try fields.timestamp("at")
        id = try fields.string("id", .identifier)
    }
}
