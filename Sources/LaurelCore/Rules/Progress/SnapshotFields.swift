import Foundation
import LaurelJSON

/// Reads the values of a stored snapshot (``ProgressAccumulator/init(snapshot:)``): each read throws when the value
/// is not what the snapshot's form says, and the snapshot is then not used (the state is rebuilt from the facts).
struct SnapshotFields {
    struct Malformed: Error {}

    let object: JSONObject

    init(_ value: JSONValue?) throws(Malformed) {
        guard let object = value?.objectValue else { throw Malformed() }
        self.object = object
    }

    func value(_ key: String) throws(Malformed) -> JSONValue {
        guard let value = object[key] else { throw Malformed() }
        return value
    }

    func int(_ key: String) throws(Malformed) -> Int { try Self.int(value(key)) }
    func optionalInt(_ key: String) throws(Malformed) -> Int? { try Self.optionalInt(value(key)) }
    func array(_ key: String) throws(Malformed) -> [JSONValue] { try Self.array(value(key)) }
    func date(_ key: String) throws(Malformed) -> Date { try Self.date(value(key)) }

    /// A string-keyed table stored as an object, each value read by `read`.
    func table<Value>(_ key: String, _ read: (JSONValue) throws(Malformed) -> Value) throws(Malformed) -> [String: Value] {
        guard let object = try value(key).objectValue else { throw Malformed() }
        var table: [String: Value] = [:]
        table.reserveCapacity(object.count)
        for (name, value) in object { table[name] = try read(value) }
        return table
    }

    static func int(_ value: JSONValue) throws(Malformed) -> Int {
        guard let int = value.intValue else { throw Malformed() }
        return int
    }

    static func optionalInt(_ value: JSONValue) throws(Malformed) -> Int? {
        value.isNull ? nil : try int(value)
    }

    static func string(_ value: JSONValue) throws(Malformed) -> String {
        guard let string = value.stringValue else { throw Malformed() }
        return string
    }

    static func bool(_ value: JSONValue) throws(Malformed) -> Bool {
        guard let bool = value.boolValue else { throw Malformed() }
        return bool
    }

    static func array(_ value: JSONValue) throws(Malformed) -> [JSONValue] {
        guard let array = value.arrayValue else { throw Malformed() }
        return array
    }

    static func day(_ value: JSONValue) throws(Malformed) -> LocalDay {
        LocalDay(daysSince1970: try int(value))
    }

    static func optionalDay(_ value: JSONValue) throws(Malformed) -> LocalDay? {
        value.isNull ? nil : try day(value)
    }

    /// An instant as the seconds since the reference date that `Date` itself holds, so that it comes back exact.
    static func date(_ value: JSONValue) throws(Malformed) -> Date {
        guard let seconds = value.doubleValue else { throw Malformed() }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The rows of a table stored as one flat array, `width` values a row.
    static func rows(_ value: JSONValue, width: Int) throws(Malformed) -> [ArraySlice<JSONValue>] {
        let values = try array(value)
        guard values.count % width == 0 else { throw Malformed() }
        return stride(from: 0, to: values.count, by: width).map { values[$0..<$0 + width] }
    }
}

extension JSONWriter {
    /// A day as its day number (the snapshot's form: no text to format or parse).
    mutating func dayNumber(_ day: LocalDay?) {
        if let day { int(day.daysSince1970) } else { null() }
    }

    /// An instant as ``SnapshotFields/date(_:)`` reads it.
    mutating func date(_ date: Date) {
        double(date.timeIntervalSinceReferenceDate)
    }

    mutating func optionalInt(_ value: Int?) {
        if let value { int(value) } else { null() }
    }
}
