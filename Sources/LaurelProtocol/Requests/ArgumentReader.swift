import LaurelCore
import Foundation
import LaurelJSON

/// Reads the fields of one argument object, checking each as it is read.
///
/// Creating a reader rejects unknown fields first, so a misspelt field is reported as unknown rather than
/// as the required field it was meant to be. Every failure is `invalid_argument` with `field` set to the
/// field's path (`tiers[2].target` inside lists). JSON `null` is only accepted where the protocol gives it
/// a meaning (`rest_day`); elsewhere it is the wrong type, just as for any other mistyped value.
struct ArgumentReader {
    private let object: JSONObject
    private let path: String

    /// - Parameters:
    ///   - object: The argument; a missing argument reads as an empty object.
    ///   - fields: The fields the verb knows.
    ///   - path: The prefix of field names in errors, such as `tiers[2].`.
    init(_ object: JSONObject?, fields: [String], path: String = "") throws(ProtocolError) {
        self.object = object ?? JSONObject()
        self.path = path
        for key in self.object.keys where !fields.contains(key) {
            throw .invalidArgument(field: path + key, message: "unknown field \(path + key)")
        }
    }

    private func invalid(_ key: String, _ expectation: String) -> ProtocolError {
        .invalidArgument(field: path + key, message: "\(path + key) must be \(expectation)")
    }

    /// Unwraps a required field's value, or fails naming the field as missing.
    func required<Value>(_ value: Value?, _ key: String) throws(ProtocolError) -> Value {
        guard let value else {
            throw .invalidArgument(field: path + key, message: "missing field \(path + key)")
        }
        return value
    }

    func string(_ key: String, _ rule: TextRule) throws(ProtocolError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value, let checked = rule.apply(to: text) else {
            throw invalid(key, rule.description + (rule.allowsLineBreaks ? "" : " without control characters"))
        }
        return checked
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
        guard let value = object[key] else { return nil }
        guard case .int(let number) = value, range.contains(number) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw invalid(key, "an integer from \(range.lowerBound)\(upper)")
        }
        return number
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else {
            throw invalid(key, "true or false")
        }
        return flag
    }

    func timestamp(_ key: String) throws(ProtocolError) -> Date? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value, let date = Timestamp.parse(text) else {
            throw invalid(key, "an RFC 3339 timestamp with an offset, such as 2026-11-20T08:15:00+01:00")
        }
        return date
    }

    func date(_ key: String) throws(ProtocolError) -> LocalDay? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value, let day = DateText.parse(text) else {
            throw invalid(key, "a date YYYY-MM-DD")
        }
        return day
    }

    /// A weekday name (`monday` ... `sunday`) that may also be JSON `null`, telling "leave as is" (absent) from
    /// "clear" (`null`).
    func nullableWeekday(_ key: String) throws(ProtocolError) -> SettingChange<Weekday> {
        switch object[key] {
        case nil: return .keep
        case .null: return .set(nil)
        case .string(let text)?:
            // Exactly as the protocol spells them: lowercase.
            if let day = Weekday.allCases.first(where: { $0.name == text }) { return .set(day) }
            fallthrough
        default:
            throw invalid(key, "one of " + Weekday.allCases.map(\.name).joined(separator: ", ") + ", or null")
        }
    }

    func choice<Choice>(_ key: String, _ type: Choice.Type) throws(ProtocolError) -> Choice?
    where Choice: RawRepresentable & CaseIterable, Choice.RawValue == String {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value, let choice = Choice(rawValue: text) else {
            throw invalid(key, "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return choice
    }

    func object(_ key: String) throws(ProtocolError) -> JSONObject? {
        guard let value = object[key] else { return nil }
        guard case .object(let nested) = value else {
            throw invalid(key, "an object")
        }
        return nested
    }

    func array(_ key: String, count: ClosedRange<Int>) throws(ProtocolError) -> [JSONValue]? {
        guard let value = object[key] else { return nil }
        guard case .array(let elements) = value else {
            throw invalid(key, "an array")
        }
        guard count.contains(elements.count) else {
            throw invalid(key, "a list of \(count.lowerBound) to \(count.upperBound) entries")
        }
        return elements
    }

    /// A list of strings, each checked with `rule`; errors name the entry (`ids[3]`).
    func strings(_ key: String, count: ClosedRange<Int>, _ rule: TextRule) throws(ProtocolError) -> [String]? {
        guard let elements = try array(key, count: count) else { return nil }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for (offset, element) in elements.enumerated() {
            guard case .string(let text) = element, let checked = rule.apply(to: text) else {
                throw invalid("\(key)[\(offset)]", rule.description + " without control characters")
            }
            result.append(checked)
        }
        return result
    }

    /// A list of template tiers: 1 to 10 of them, each well-formed, targets strictly increasing and
    /// tier names unique (case-insensitively) — the rules of rules.md that need no other context.
    /// A combo: 2 to 5 `{"activity", "amount"}` of different activities, amounts 1 to 100000; anything else is
    /// `invalid_argument` on the field.
    func combo(_ key: String) throws(ProtocolError) -> [ComboDraftPart] {
        let problem = ProtocolError.invalidArgument(
            field: key, message: "\(key) must list 2 to 5 different activities, each {\"activity\", \"amount\"} with an amount of 1 to 100000")
        guard case .array(let elements)? = object[key], ComboPart.activities.contains(elements.count) else { throw problem }
        var parts: [ComboDraftPart] = []
        for element in elements {
            guard case .object(let fields) = element, fields.count == 2, case .string(let named)? = fields["activity"],
                  let activity = TextRule.activityReference.apply(to: named), case .int(let amount)? = fields["amount"],
                  ComboPart.amounts.contains(amount), !parts.contains(where: { $0.activity.lowercased() == activity.lowercased() })
            else { throw problem }
            parts.append(ComboDraftPart(activity: activity, amount: amount))
        }
        return parts
    }

    func tiers(_ key: String) throws(ProtocolError) -> [TemplateTier]? {
        guard let elements = try array(key, count: 1...10) else { return nil }
        var tiers: [TemplateTier] = []
        var seenNames: Set<String> = []
        for (offset, element) in elements.enumerated() {
            let prefix = "\(path)\(key)[\(offset)]"
            guard case .object(let fields) = element else {
                throw .invalidArgument(field: prefix, message: "\(prefix) must be an object")
            }
            let tier = try ArgumentReader(
                fields, fields: ["tier", "target", "label", "icon", "window_minutes"], path: prefix + "."
            ).tier()
            if let previous = tiers.last, tier.target <= previous.target {
                throw .invalidArgument(
                    field: prefix + ".target", message: "\(prefix).target must be greater than the tier before it")
            }
            guard seenNames.insert(tier.tier.lowercased()).inserted else {
                throw .invalidArgument(field: prefix + ".tier", message: "\(prefix).tier repeats an earlier tier name")
            }
            tiers.append(tier)
        }
        return tiers
    }

    private func tier() throws(ProtocolError) -> TemplateTier {
        TemplateTier(
            tier: try required(string("tier", .name), "tier"),
            target: try required(integer("target", in: 1...1_000_000_000), "target"),
            label: try string("label", .name),
            icon: try string("icon", .icon),
            windowMinutes: try integer("window_minutes", in: 1...1440)
        )
    }
}
