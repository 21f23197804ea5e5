import Foundation
import LaurelCore
import LaurelJSON

/// Writes the records of a commit batch (`laurel.commit_part`) field by field in the type's order: a field not
/// written before a later one (or before the record ends) is sent as NULL, as the server wants every field of a
/// record. Writing a field out of order is a mistake in the caller, caught on its first run.
struct CommitPartWriter {
    var array: PostgresBinaryArray
    /// The next field of the record (the ones before it are written).
    private var next = 0

    init(array: PostgresBinaryArray) {
        self.array = array
    }

    private static let fieldCount = CommitPartField.allCases.count
    /// Each field's header as a NULL (its type's OID and the length -1), in order: a run of fields left out is copied
    /// from here in one piece (a LOG leaves out some 30 of the 61).
    private static let nullHeaders: [UInt8] = {
        var array = PostgresBinaryArray(elementType: 0, capacity: 0)
        array.beginRecord(fields: fieldCount)
        for field in CommitPartField.allCases { array.null(field.type) }
        array.endRecord()
        // After the array's header (20 bytes) and the record's length and field count (8).
        return Array(array.finish().dropFirst(28))
    }()

    mutating func begin() {
        array.beginRecord(fields: Self.fieldCount)
        next = 0
    }

    mutating func end() {
        nulls(upTo: Self.fieldCount)
        array.endRecord()
    }

    /// An integer field, as its type's width (the type's range is the caller's).
    mutating func int(_ field: CommitPartField, _ value: Int) {
        at(field)
        switch field.type {
        case .int2: array.int2(value)
        case .int4: array.int4(value)
        default: array.int8(value)
        }
    }

    mutating func bool(_ field: CommitPartField, _ value: Bool) {
        at(field)
        array.bool(value)
    }

    mutating func double(_ field: CommitPartField, _ value: Double) {
        at(field)
        array.float8(value)
    }

    mutating func date(_ field: CommitPartField, _ day: LocalDay) {
        at(field)
        array.date(daysSince1970: day.daysSince1970)
    }

    mutating func text(_ field: CommitPartField, _ value: String) {
        at(field)
        array.text(value)
    }

    mutating func text(_ field: CommitPartField, ifPresent value: String?) {
        if let value { text(field, value) }
    }

    /// A `text[]`; none is NULL.
    mutating func texts(_ field: CommitPartField, _ values: some Collection<String>) {
        guard !values.isEmpty else { return }
        at(field)
        array.textArray(values)
    }

    /// A `text[]` whose nil values are NULL elements.
    mutating func texts(_ field: CommitPartField, optional values: some Collection<String?>) {
        at(field)
        array.textArray(values)
    }

    /// A `smallint[]` (`int2`) whose nil values are NULL elements.
    mutating func int2s(_ field: CommitPartField, _ values: some Collection<Int?>) {
        at(field)
        array.int2Array(values)
    }

    /// An `integer[]` (`int4`).
    mutating func int4s(_ field: CommitPartField, _ values: some Collection<Int>) {
        at(field)
        array.int4Array(values)
    }

    mutating func dates(_ field: CommitPartField, _ days: some Collection<LocalDay>) {
        at(field)
        array.dateArray(daysSince1970: days.lazy.map(\.daysSince1970))
    }

    mutating func bools(_ field: CommitPartField, _ values: some Collection<Bool>) {
        at(field)
        array.boolArray(values)
    }

    /// A `uuid` from its text (``UserCommitBatch/unwritable(_:)`` keeps out a batch any text that is not one).
    mutating func uuid(_ field: CommitPartField, _ text: String) {
        at(field)
        array.uuid(UUID(uuidString: text)!)
    }

    mutating func uuids(_ field: CommitPartField, _ texts: [String]) {
        at(field)
        array.uuidArray(texts.map { UUID(uuidString: $0)! })
    }

    /// A field of JSON written by `body`, as the field's type has it (`json`, or `text` for JSON kept unparsed).
    mutating func json(_ field: CommitPartField, _ body: (inout JSONWriter) -> Void) {
        at(field)
        array.json(as: field.type, body)
    }

    /// A field of JSON that is JSON text already.
    mutating func json(_ field: CommitPartField, utf8 text: String) {
        at(field)
        array.json(utf8: text, as: field.type)
    }

    /// A field of JSON that is JSON text's UTF-8 already.
    mutating func json(_ field: CommitPartField, utf8 bytes: [UInt8]) {
        at(field)
        array.json(utf8: bytes, as: field.type)
    }

    mutating func jsonArray(_ field: CommitPartField, of elements: some Collection<String>) {
        at(field)
        array.jsonArray(of: elements)
    }

    /// Moves to `field`, sending the fields before it that were not written as NULL.
    private mutating func at(_ field: CommitPartField) {
        precondition(field.rawValue >= next, "\(field.name) written after a later field of laurel.commit_part")
        nulls(upTo: field.rawValue)
        next = field.rawValue + 1
    }

    private mutating func nulls(upTo end: Int) {
        guard next < end else { return }
        let (from, to) = (next, end)
        Self.nullHeaders.withUnsafeBytes { headers in array.append(UnsafeRawBufferPointer(rebasing: headers[from * 8..<to * 8])) }
        next = end
    }
}
