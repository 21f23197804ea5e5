/// A statement parameter. Values travel in PostgreSQL's text format, so the SQL names the type with an explicit
/// cast (`$1::bigint`, `$2::boolean`); `.binary` in its binary format, which the cast's type must read.
public enum PostgresValue: Sendable, Hashable {
    case null
    case text(String)
    /// Text as UTF-8 bytes (the JSON a writer made): copied to libpq as it is, without a `String` in between, which
    /// would check and copy every byte of a batch once more.
    case utf8([UInt8])
    /// A value in the binary format of the type the statement casts its parameter to (``PostgresBinaryArray``).
    case binary([UInt8])
    case int(Int)
    case bool(Bool)
    case double(Double)

    /// `.text`, or `.null` for nil.
    public init(_ value: String?) { self = value.map(PostgresValue.text) ?? .null }
    /// `.int`, or `.null` for nil.
    public init(_ value: Int?) { self = value.map(PostgresValue.int) ?? .null }
    /// `.bool`, or `.null` for nil.
    public init(_ value: Bool?) { self = value.map(PostgresValue.bool) ?? .null }
    /// `.double`, or `.null` for nil.
    public init(_ value: Double?) { self = value.map(PostgresValue.double) ?? .null }

    /// The text the server parses, or nil for SQL NULL.
    var wireText: String? {
        switch self {
        case .null:
            return nil
        case .text(let string):
            return string
        case .utf8(let bytes):
            return String(decoding: bytes, as: UTF8.self)
        case .binary:
            return nil
        case .int(let int):
            return String(int)
        case .bool(let bool):
            return bool ? "t" : "f"
        case .double(let double):
            if double.isNaN { return "NaN" }
            if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
            return String(double)
        }
    }
}

extension PostgresValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension PostgresValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension PostgresValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PostgresValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension PostgresValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}
