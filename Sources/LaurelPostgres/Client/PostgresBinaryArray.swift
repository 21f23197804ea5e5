import Foundation
import LaurelJSON

/// A one-dimensional array of composite values (rows of a type made with `CREATE TYPE ... AS (...)`) in PostgreSQL's
/// binary format, as a parameter sent with format 1 carries it: the server reads each field with its type's receive
/// function, where text or JSON would have it parsed and every field looked up by name. The group commit's batch is
/// one (`laurel.commit_part[]`).
///
/// The layout is the server's `array_recv` and `record_recv` (all integers big-endian): a header (dimensions, a
/// null flag, the element type, the length, the lower bound), then each element as a length and a record: its field
/// count, then each field as its type's OID, its length (-1 for NULL) and its bytes. The caller writes exactly as
/// many fields as it began the record with (the server refuses a record of any other count). Bytes go into room
/// made ahead, a field's header and value in one write: a batch is written once per LOG, dozens of fields each.
struct PostgresBinaryArray {
    /// Built-in types' OIDs (`pg_type.oid`, fixed since they are created at initdb) of the fields written here.
    enum FieldType: UInt32 {
        case bool = 16, int8 = 20, int2 = 21, int4 = 23, text = 25, json = 114, float8 = 701, date = 1082, uuid = 2950
        case jsonArray = 199, textArray = 1009, uuidArray = 2951, boolArray = 1000, int2Array = 1005, int4Array = 1007
        case dateArray = 1182
    }

    /// As long as the room made; the bytes after `count` are not written yet.
    private var storage: [UInt8]
    private var count = 0
    private var elements: Int32 = 0
    private var recordAt = 0

    /// Where the header holds the length: after the dimensions, the null flag and the element type.
    private static let lengthAt = 12

    /// An empty array of `elementType` (the composite type's OID, `'schema.type'::regtype::oid`), with room made for
    /// `capacity` bytes.
    init(elementType: UInt32, capacity: Int) {
        // Room, not zeros: every byte up to `count` is written before it is read, and the rest is cut off by `finish`
        // (zeroing a batch's 1,536 bytes a part was some 1,500 instructions a LOG).
        let room = Swift.max(capacity, 64)
        storage = [UInt8](unsafeUninitializedCapacity: room) { _, initialized in initialized = room }
        write(upTo: 20) { start in
            Self.store(Int32(1), at: start)  // dimensions
            Self.store(Int32(0), at: start + 4)  // no NULL elements
            Self.store(elementType, at: start + 8)
            Self.store(Int32(0), at: start + 12)  // length, filled in by finish
            Self.store(Int32(1), at: start + 16)  // lower bound
            return 20
        }
    }

    /// The array's bytes, its last use. An array of no elements is written with no dimensions, as the server writes one.
    consuming func finish() -> [UInt8] {
        if elements == 0 {
            // Dimensions 0, no NULLs, the element type; nothing else.
            patch(0, at: 0)
            count = Self.lengthAt
        } else {
            patch(elements, at: Self.lengthAt)
        }
        storage.removeLast(storage.count - count)
        return storage
    }

    // MARK: records

    /// Starts the next element, a record of `fields` fields, which ``endRecord()`` ends.
    mutating func beginRecord(fields: Int) {
        elements += 1
        recordAt = count
        write(upTo: 8) { start in
            Self.store(Int32(0), at: start)  // the record's length, filled in by endRecord
            Self.store(Int32(fields), at: start + 4)
            return 8
        }
    }

    mutating func endRecord() {
        patch(Int32(count - recordAt - 4), at: recordAt)
    }

    /// Bytes written as they are (fields a caller has ready, such as the headers of NULL fields).
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        write(upTo: bytes.count) { start in
            if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
            return bytes.count
        }
    }

    mutating func null(_ type: FieldType) {
        write(upTo: 8) { start in Self.storeHeader(type, length: -1, at: start) }
    }

    mutating func bool(_ value: Bool) {
        write(upTo: 9) { start in
            (start + 8).storeBytes(of: value ? 1 : 0, as: UInt8.self)
            return Self.storeHeader(.bool, length: 1, at: start) + 1
        }
    }

    mutating func int2(_ value: Int) {
        write(upTo: 10) { start in
            Self.store(Int16(truncatingIfNeeded: value), at: start + 8)
            return Self.storeHeader(.int2, length: 2, at: start) + 2
        }
    }

    mutating func int4(_ value: Int) {
        write(upTo: 12) { start in
            Self.store(Int32(truncatingIfNeeded: value), at: start + 8)
            return Self.storeHeader(.int4, length: 4, at: start) + 4
        }
    }

    mutating func int8(_ value: Int) {
        write(upTo: 16) { start in
            Self.store(Int64(value), at: start + 8)
            return Self.storeHeader(.int8, length: 8, at: start) + 8
        }
    }

    mutating func float8(_ value: Double) {
        write(upTo: 16) { start in
            Self.store(value.bitPattern, at: start + 8)
            return Self.storeHeader(.float8, length: 8, at: start) + 8
        }
    }

    /// A date as days since 1970-01-01 (the server counts from 2000-01-01).
    mutating func date(daysSince1970: Int) {
        write(upTo: 12) { start in
            Self.store(Int32(truncatingIfNeeded: daysSince1970 - Self.daysFrom1970To2000), at: start + 8)
            return Self.storeHeader(.date, length: 4, at: start) + 4
        }
    }

    mutating func text(_ value: String) {
        utf8(value, as: .text)
    }

    /// A UUID's 16 bytes.
    mutating func uuid(_ value: UUID) {
        write(upTo: 24) { start in
            withUnsafeBytes(of: value.uuid) { (start + 8).copyMemory(from: $0.baseAddress!, byteCount: 16) }
            return Self.storeHeader(.uuid, length: 16, at: start) + 16
        }
    }

    /// JSON written by `body`, sent as `type`: `json` (the server parses it to check it) or `text` (kept unparsed).
    mutating func json(as type: FieldType = .json, _ body: (inout JSONWriter) -> Void) {
        let headerAt = count
        write(upTo: 8) { _ in 8 }
        // The writer writes into this array's own storage (handed over, so that it stays unique), not into a buffer
        // of its own to be copied here: a LOG writes its board scores so.
        var writer = JSONWriter(continuing: exchange(&storage, with: []), count: count)
        body(&writer)
        // Consumed, not copied: a writer left alive would share the storage, and the next write here would copy
        // the whole batch (every LOG of a closed loop's batch did, until this `consume`).
        (storage, count) = (consume writer).handBack()
        header(type, at: headerAt)
    }

    /// A value that is JSON text already (an answer, a push), sent as `type` (see ``json(as:_:)``).
    mutating func json(utf8 value: String, as type: FieldType = .json) {
        utf8(value, as: type)
    }

    /// A value that is JSON text's UTF-8 already (an answer), sent as `type` (see ``json(as:_:)``).
    mutating func json(utf8 bytes: [UInt8], as type: FieldType = .json) {
        bytes.withUnsafeBufferPointer { utf8($0, as: type) }
    }

    /// A `json[]` of elements that are JSON text already (pushes): PostgreSQL checks each as it reads it and hands
    /// them on one by one (`unnest`), where a single `json` array had to be taken apart again for every part.
    mutating func jsonArray(of elements: some Collection<String>) {
        array(of: .json, elements, as: .jsonArray)
    }

    /// A `text[]` of `values` (one dimension, no NULLs).
    mutating func textArray(_ values: some Collection<String>) {
        array(of: .text, values, as: .textArray)
    }

    /// A `text[]` of `values` (one dimension), a nil value a NULL element.
    mutating func textArray(_ values: some Collection<String?>) {
        array(of: .text, values, as: .textArray)
    }

    /// An array of `values` (one dimension, no NULLs) whose elements are sent as their UTF-8 (`text`, `json`).
    private mutating func array(of element: FieldType, _ values: some Collection<String>, as type: FieldType) {
        array(of: element, values.lazy.map { Optional($0) }, as: type)
    }

    /// An array of `values` (one dimension) whose elements are sent as their UTF-8; a nil value is a NULL element.
    private mutating func array(of element: FieldType, _ values: some Collection<String?>, as type: FieldType) {
        let headerAt = count
        arrayHeader(of: element, count: values.count, hasNulls: values.contains(nil))
        for value in values {
            if let value { utf8(value, as: nil) } else { nullElement() }
        }
        header(type, at: headerAt)
    }

    /// A `smallint[]` of `values` (one dimension), a nil value a NULL element.
    mutating func int2Array(_ values: some Collection<Int?>) {
        fixedWidthArray(of: .int2, as: .int2Array, values) { Int16(truncatingIfNeeded: $0) }
    }

    /// An `integer[]` of `values` (one dimension, no NULLs).
    mutating func int4Array(_ values: some Collection<Int>) {
        fixedWidthArray(of: .int4, as: .int4Array, values.lazy.map { Optional($0) }) { Int32(truncatingIfNeeded: $0) }
    }

    /// A `date[]` of days since 1970-01-01 (one dimension, no NULLs).
    mutating func dateArray(daysSince1970 values: some Collection<Int>) {
        fixedWidthArray(of: .date, as: .dateArray, values.lazy.map { Optional($0) }) { Int32(truncatingIfNeeded: $0 - Self.daysFrom1970To2000) }
    }

    /// A `boolean[]` of `values` (one dimension, no NULLs).
    mutating func boolArray(_ values: some Collection<Bool>) {
        fixedWidthArray(of: .bool, as: .boolArray, values.lazy.map { Optional($0) }) { UInt8($0 ? 1 : 0) }
    }

    /// An array of `values` (one dimension) whose elements are fixed-width integers, each its `encoded` value in
    /// network order; a nil value is a NULL element.
    private mutating func fixedWidthArray<Value, Encoded: FixedWidthInteger>(
        of element: FieldType, as type: FieldType, _ values: some Collection<Value?>, _ encoded: (Value) -> Encoded
    ) {
        let headerAt = count
        arrayHeader(of: element, count: values.count, hasNulls: values.contains { $0 == nil })
        let width = MemoryLayout<Encoded>.size
        for value in values {
            guard let value else {
                nullElement()
                continue
            }
            write(upTo: 4 + width) { start in
                Self.store(Int32(width), at: start)
                Self.store(encoded(value), at: start + 4)
                return 4 + width
            }
        }
        header(type, at: headerAt)
    }

    /// An array's NULL element: its length, -1, and nothing after it.
    private mutating func nullElement() {
        write(upTo: 4) { start in
            Self.store(Int32(-1), at: start)
            return 4
        }
    }

    /// A `uuid[]` of `values` (one dimension, no NULLs).
    mutating func uuidArray(_ values: [UUID]) {
        let headerAt = count
        arrayHeader(of: .uuid, count: values.count)
        for value in values {
            write(upTo: 20) { start in
                Self.store(Int32(16), at: start)
                withUnsafeBytes(of: value.uuid) { (start + 4).copyMemory(from: $0.baseAddress!, byteCount: 16) }
                return 20
            }
        }
        header(.uuidArray, at: headerAt)
    }

    // MARK: layout

    /// 2000-01-01 as days since 1970-01-01.
    private static let daysFrom1970To2000 = 10_957

    /// A string's UTF-8 with its length before it, and its type's OID before that unless `type` is nil (an array's
    /// element has none).
    private mutating func utf8(_ value: String, as type: FieldType?) {
        var value = value
        value.withUTF8 { utf8($0, as: type) }
    }

    private mutating func utf8(_ utf8: UnsafeBufferPointer<UInt8>, as type: FieldType?) {
        let header = type == nil ? 4 : 8
        write(upTo: header + utf8.count) { start in
            if let type { Self.store(type.rawValue, at: start) }
            Self.store(Int32(utf8.count), at: start + header - 4)
            if let base = utf8.baseAddress { (start + header).copyMemory(from: base, byteCount: utf8.count) }
            return header + utf8.count
        }
    }

    /// The 20-byte header of an array field's value, after the field's own 8 bytes (filled in by ``header(_:at:)``).
    private mutating func arrayHeader(of element: FieldType, count elements: Int, hasNulls: Bool = false) {
        write(upTo: 28) { start in
            Self.store(Int32(1), at: start + 8)  // dimensions
            Self.store(Int32(hasNulls ? 1 : 0), at: start + 12)  // whether any element is NULL
            Self.store(element.rawValue, at: start + 16)
            Self.store(Int32(elements), at: start + 20)
            Self.store(Int32(1), at: start + 24)  // lower bound
            return 28
        }
    }

    /// Fills in the header of the field that starts at `offset` and ends here.
    private mutating func header(_ type: FieldType, at offset: Int) {
        let length = count - offset - 8
        storage.withUnsafeMutableBytes { bytes in _ = Self.storeHeader(type, length: length, at: bytes.baseAddress! + offset) }
    }

    @inline(__always)
    private static func storeHeader(_ type: FieldType, length: Int, at start: UnsafeMutableRawPointer) -> Int {
        store(type.rawValue, at: start)
        store(Int32(truncatingIfNeeded: length), at: start + 4)
        return 8
    }

    @inline(__always)
    private static func store<Integer: FixedWidthInteger>(_ value: Integer, at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: value.bigEndian, as: Integer.self)
    }

    /// Writes up to `maximum` bytes at the end with `body`, which returns how many it wrote.
    @inline(__always)
    private mutating func write(upTo maximum: Int, _ body: (UnsafeMutableRawPointer) -> Int) {
        if count + maximum > storage.count { grow(toHold: count + maximum) }
        let start = count
        count += storage.withUnsafeMutableBytes { body($0.baseAddress! + start) }
    }

    private mutating func patch(_ value: Int32, at offset: Int) {
        storage.withUnsafeMutableBytes { Self.store(value, at: $0.baseAddress! + offset) }
    }

    private mutating func grow(toHold needed: Int) {
        storage.append(contentsOf: repeatElement(0, count: Swift.max(needed, storage.count * 2) - storage.count))
    }
}
