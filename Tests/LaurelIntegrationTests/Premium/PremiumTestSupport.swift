import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// Builders of template requests and readers of TEMPLATE answers shared by the premium tests.
enum Templates {
    static let tierNames = ["bronze", "silver", "gold", "platinum"]

    /// One TIER object.
    static func tier(_ name: String, _ target: Int, window: Int? = nil, label: String? = nil) -> JSONValue {
        var object: JSONObject = ["tier": .string(name), "target": .int(target)]
        if let window { object["window_minutes"] = .int(window) }
        if let label { object["label"] = .string(label) }
        return .object(object)
    }

    /// Tiers named bronze, silver, gold, platinum (then `tier 5`, ...) with these targets.
    static func tiers(_ targets: [Int], window: Int? = nil) -> JSONValue {
        .array(targets.enumerated().map { index, target in
            tier(index < tierNames.count ? tierNames[index] : "tier \(index + 1)", target, window: window)
        })
    }

    /// A TEMPLATE.CREATE argument.
    static func create(_ activity: String, _ type: String, tiers: JSONValue? = nil, name: String? = nil) -> JSONObject {
        var argument: JSONObject = ["activity": .string(activity), "type": .string(type)]
        if let tiers { argument["tiers"] = tiers }
        if let name { argument["name"] = .string(name) }
        return argument
    }

    /// The generated achievements of a TEMPLATE object.
    static func achievements(_ template: JSONObject) -> [JSONObject] {
        (template["achievements"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    /// The TEMPLATE objects of a TEMPLATES (or a `"*"` TEMPLATE.CREATE) answer.
    static func list(_ answer: LineClient.Line) -> [JSONObject] {
        answer.okArray.compactMap(\.objectValue)
    }

    /// The `UNLOCK` pushes of one template's achievements.
    static func unlocks(_ pushes: [LineClient.Line], template id: String) -> [JSONObject] {
        pushes.filter { $0.kind == "UNLOCK" && $0.object["template_id"]?.stringValue == id }.map(\.object)
    }

    /// Starts the user's trial and checks it gave premium.
    static func startTrial(_ client: PushRecorder, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let answer = try await client.request("TRIAL.START")
        #expect(answer.kind == "OK" && answer.object["status"] == "trial", "TRIAL.START: \(answer)", sourceLocation: sourceLocation)
    }

    /// Creates a template and returns it; records an issue unless the answer is `OK`.
    static func created(
        _ client: PushRecorder, _ argument: JSONObject, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (template: JSONObject, id: String) {
        let answer = try await client.request("TEMPLATE.CREATE", argument)
        let template = Engine.ok(answer, sourceLocation: sourceLocation)
        let id = try #require(template["id"]?.stringValue, "TEMPLATE.CREATE: \(answer)", sourceLocation: sourceLocation)
        return (template, id)
    }

    /// Creates a custom activity and returns its id.
    static func activity(_ client: PushRecorder, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let answer = try await client.request("ACTIVITY.CREATE", ["name": .string(name)])
        return try #require(answer.okObject["id"]?.stringValue, "ACTIVITY.CREATE \(name): \(answer)", sourceLocation: sourceLocation)
    }

    /// One achievement as ACHIEVEMENT reads it (hidden ones included).
    static func achievement(_ client: PushRecorder, _ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONObject {
        Engine.ok(try await client.request("ACHIEVEMENT", ["id": .string(id)]), sourceLocation: sourceLocation)
    }

    /// The one template the user has with this id, as TEMPLATES lists it.
    static func listed(_ client: PushRecorder, _ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONObject? {
        list(try await client.request("TEMPLATES")).first { $0["id"]?.stringValue == id }
    }
}

/// The rows of one user that template requests write, read with the admin connection: a refusal must leave
/// all of them as they were. `templates` also captures every stored field of every template, so an UPDATE
/// that changed a row without adding one shows too.
struct PremiumRows: Equatable, CustomStringConvertible {
    var templateCount: Int
    var templates: String
    var unlocks: Int
    var pushes: Int

    var description: String { "templates \(templateCount), unlocks \(unlocks), pushes \(pushes)" }

    static func of(_ user: TestUser) async throws -> PremiumRows {
        let id = PostgresValue.int(Int(user.id.rawValue))
        let row = try await LaurelTestDatabase.admin().withConnection { connection in
            try connection.query(
                """
                SELECT (SELECT count(*) FROM laurel.templates WHERE user_id = $1::bigint) AS template_count,
                       (SELECT coalesce(string_agg(concat_ws('|', id, name, activity_id, type, tiers::text, active, inactive_reason,
                                                             created_at, updated_at), E'\\n' ORDER BY id), '')
                          FROM laurel.templates WHERE user_id = $1::bigint) AS templates,
                       (SELECT count(*) FROM laurel.unlocks WHERE user_id = $1::bigint) AS unlocks,
                       (SELECT count(*) FROM laurel.pushes WHERE user_id = $1::bigint) AS pushes
                """, [id]).first
        }
        let found = try #require(row)
        return PremiumRows(
            templateCount: try found.int("template_count"), templates: try found.string("templates"),
            unlocks: try found.int("unlocks"), pushes: try found.int("pushes"))
    }

    /// The user's stored unlocks whose achievement id starts with `prefix`.
    static func unlockCount(of user: TestUser, prefix: String) async throws -> Int {
        try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.unlocks WHERE user_id = $1::bigint AND starts_with(achievement_id, $2::text)",
            [.int(Int(user.id.rawValue)), .text(prefix)])
    }
}

/// A request a template test expects refused: its code, its `field`, and any other details it must carry.
struct TemplateRefusal: Sendable, CustomStringConvertible {
    let verb: String
    let argument: JSONObject?
    let code: String
    var field: String? = nil
    var details: JSONObject = [:]
    let because: String

    var description: String { "\(verb) \(argument.map { JSONValue.object($0).serialized() } ?? "") (\(because))" }
}

extension PushRecorder {
    /// Sends each refusal's request and checks its answer, that the connection still answers afterwards, and that
    /// none of the user's template, unlock or push rows changed.
    func expectRefusals(_ refusals: [TemplateRefusal], of user: TestUser, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for refusal in refusals {
            let before = try await PremiumRows.of(user)
            let answer = try await request(refusal.verb, refusal.argument)
            #expect(answer.errorCode == refusal.code, "\(refusal): \(answer)", sourceLocation: sourceLocation)
            #expect(answer.errorField == refusal.field, "\(refusal): \(answer)", sourceLocation: sourceLocation)
            for (key, value) in refusal.details {
                #expect(answer.object[key] == value, "\(refusal): \(key) in \(answer)", sourceLocation: sourceLocation)
            }
            #expect(try await client.pingSucceeds(), "the connection stopped answering after \(refusal)", sourceLocation: sourceLocation)
            let after = try await PremiumRows.of(user)
            #expect(after == before, "\(refusal) changed \(before) into \(after)", sourceLocation: sourceLocation)
        }
    }
}

/// Instants at chosen wall-clock readings in a user's zone, following the zone's real rules.
struct ZoneClock {
    let zone: TimeZone
    private let calendar: Calendar

    init(_ identifier: String) {
        zone = TimeZone(identifier: identifier)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// The local date now.
    var today: LocalDay { LocalDay(of: Date(), in: zone) }

    /// The first instant of `day` in the zone (its local midnight).
    func start(of day: LocalDay) -> Date {
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        return calendar.startOfDay(for: calendar.date(from: components)!)
    }

    /// The instant the zone's clocks read `hour`:`minute` on `day`.
    func at(_ day: LocalDay, hour: Int, minute: Int = 0) -> Date {
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute)
        return calendar.date(from: components)!
    }

    /// Returns once today has at least `room` left in the zone, waiting for the next day when it has less: a test
    /// that takes its days from the wall clock and checks them across several steps runs inside one day.
    func waitForRoomInToday(_ room: Duration) async throws {
        let left = start(of: today.next).timeIntervalSinceNow
        guard left < Double(room.components.seconds) else { return }
        try await Task.sleep(for: .seconds(max(left, 0) + 1))
    }

    /// The latest instant of `day` that is not in the future: a log on today that the server accepts.
    func latestPast(on day: LocalDay) -> Date {
        min(start(of: day.next).addingTimeInterval(-0.001), Date())
    }
}

extension Date {
    /// This instant moved by a whole number of milliseconds (speed windows are exact to the millisecond).
    func adding(milliseconds: Int) -> Date {
        Date(timeIntervalSince1970: ((timeIntervalSince1970 * 1000).rounded() + Double(milliseconds)) / 1000)
    }
}
