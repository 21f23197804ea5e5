import Foundation
import LaurelJSON
import Testing

@testable import LaurelPostgres

/// The bytes of PostgreSQL's binary format for an array of records (`array_recv`, `record_recv`), which the server
/// reads as they come: every length where it belongs, big-endian. (The server reading real batches back is
/// `CommitBatchFormatTests`.)
@Suite struct PostgresBinaryArrayTests {
    static func int32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    @Test func anEmptyArrayHasNoDimensions() {
        let bytes = PostgresBinaryArray(elementType: 16_500, capacity: 0).finish()
        #expect(bytes == Self.int32(0) + Self.int32(0) + Self.int32(16_500))
    }

    @Test func aRecordCarriesEachFieldsTypeLengthAndValue() {
        var array = PostgresBinaryArray(elementType: 16_500, capacity: 0)
        array.beginRecord(fields: 3)
        array.int4(7)
        array.null(.text)
        array.textArray(["ab", "c"])
        array.endRecord()
        let bytes = array.finish()
        let textArray = Self.int32(1) + Self.int32(0) + Self.int32(25) + Self.int32(2) + Self.int32(1)
            + Self.int32(2) + Array("ab".utf8) + Self.int32(1) + Array("c".utf8)
        let record = Self.int32(3) + Self.int32(23) + Self.int32(4) + Self.int32(7) + Self.int32(25) + Self.int32(-1)
            + Self.int32(1009) + Self.int32(Int32(textArray.count)) + textArray
        let header = Self.int32(1) + Self.int32(0) + Self.int32(16_500) + Self.int32(1) + Self.int32(1)
        #expect(bytes == header + Self.int32(Int32(record.count)) + record)
    }

    @Test func aDateCountsDaysFrom2000() {
        var array = PostgresBinaryArray(elementType: 1, capacity: 0)
        array.beginRecord(fields: 1)
        array.date(daysSince1970: 10_957 + 31)
        array.endRecord()
        let bytes = array.finish()
        #expect(Array(bytes.suffix(12)) == Self.int32(1082) + Self.int32(4) + Self.int32(31))
    }

    @Test func aJSONFieldIsWrittenInPlaceAfterTheFieldsBeforeIt() {
        // Room for less than the record: the JSON writer grows the array's own storage.
        var array = PostgresBinaryArray(elementType: 1, capacity: 0)
        array.beginRecord(fields: 3)
        array.int4(7)
        array.json { json in
            json.beginObject()
            json.key(runtime: "a-much-longer-activity-id-than-the-room-left-in-the-array", after: "activity:")
            json.beginArray()
            json.int(3)
            json.endArray()
            json.endObject()
        }
        array.bool(true)
        array.endRecord()
        let bytes = array.finish()
        let json = Array(#"{"activity:a-much-longer-activity-id-than-the-room-left-in-the-array":[3]}"#.utf8)
        let record = Self.int32(3) + Self.int32(23) + Self.int32(4) + Self.int32(7)
            + Self.int32(114) + Self.int32(Int32(json.count)) + json + Self.int32(16) + Self.int32(1) + [1]
        #expect(Array(bytes.dropFirst(20)) == Self.int32(Int32(record.count)) + record)
    }

    @Test func jsonArraysAndUUIDsCarryTheirLengths() {
        var array = PostgresBinaryArray(elementType: 1, capacity: 0)
        array.beginRecord(fields: 2)
        array.jsonArray(of: ["{}", "[1]"])
        let uuid = UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!
        array.uuidArray([uuid])
        array.endRecord()
        let bytes = array.finish()
        let uuidBytes: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
        let uuidArray = Self.int32(1) + Self.int32(0) + Self.int32(2950) + Self.int32(1) + Self.int32(1) + Self.int32(16) + uuidBytes
        // A json[]: one dimension, no NULLs, elements of type json, two of them from index 1, each with its length.
        let jsonArray = Self.int32(1) + Self.int32(0) + Self.int32(114) + Self.int32(2) + Self.int32(1)
            + Self.int32(2) + Array("{}".utf8) + Self.int32(3) + Array("[1]".utf8)
        let record = Self.int32(2) + Self.int32(199) + Self.int32(Int32(jsonArray.count)) + jsonArray
            + Self.int32(2951) + Self.int32(Int32(uuidArray.count)) + uuidArray
        #expect(Array(bytes.dropFirst(20)) == Self.int32(Int32(record.count)) + record)
    }
}
