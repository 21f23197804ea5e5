/// A JSON object: unique string keys mapped to values, kept in insertion order.
///
/// Serialization writes members in insertion order, so responses read the way the code builds them.
/// Equality and hashing ignore the order, as JSON itself does: `{"a":1,"b":2}` equals `{"b":2,"a":1}`.
/// Assigning to an existing key keeps its position; assigning `nil` removes the member.
public struct JSONObject: Sendable {
    public typealias Element = (key: String, value: JSONValue)

    /// Objects up to this size are searched linearly; larger ones get a hash index (so that a hostile object of
    /// thousands of members is not checked for duplicate keys pair by pair). Protocol objects have a handful of
    /// members and the store's figures fourteen, mostly keys short enough to compare as two machine words, where a
    /// scan beats hashing: reading a notification of three announced changes took 153,000 instructions with 16
    /// here against 197,000 with 8.
    private static let indexThreshold = 16

    private var members: [Element] = []
    private var index: [String: Int]? = nil

    /// An empty object.
    public init() {}

    /// An empty object with room for `capacity` members: what the parser starts each object with, so that a
    /// request's handful of members are not added by growing the storage once for each.
    init(reservingCapacity capacity: Int) {
        members.reserveCapacity(capacity)
    }

    /// The keys in insertion order.
    public var keys: [String] {
        members.map(\.key)
    }

    /// The member values in insertion order.
    public var values: [JSONValue] {
        members.map(\.value)
    }

    /// The number of members.
    public var count: Int {
        members.count
    }

    /// Whether the object has no members.
    public var isEmpty: Bool {
        members.isEmpty
    }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            position(of: key).map { members[$0].value }
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    members[position].value = newValue
                } else {
                    append(key: key, value: newValue)
                }
            } else if let position = position(of: key) {
                members.remove(at: position)
                rebuildIndex()
            }
        }
    }

    /// Adds a member unless the key is already present; returns whether it was added.
    /// The parser uses this to detect duplicate keys without a second lookup.
    mutating func insertIfAbsent(key: String, value: JSONValue) -> Bool {
        if position(of: key) != nil {
            return false
        }
        append(key: key, value: value)
        return true
    }

    private mutating func append(key: String, value: JSONValue) {
        members.append((key, value))
        if index != nil {
            index![key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private func position(of key: String) -> Int? {
        if let index {
            return index[key]
        }
        return members.firstIndex { $0.key == key }
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var newIndex = [String: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() {
            newIndex[member.key] = position
        }
        index = newIndex
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[Element]> {
        members.makeIterator()
    }

    public var underestimatedCount: Int {
        members.count
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (key, value) in elements {
            precondition(insertIfAbsent(key: key, value: value), "duplicate key \"\(key)\" in a JSON object literal")
        }
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs where rhs[key] != value {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Members are hashed separately and summed, so the result does not depend on their order.
        var combined = 0
        for (key, value) in members {
            var memberHasher = Hasher()
            memberHasher.combine(key)
            memberHasher.combine(value)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text of the object.
    public var description: String {
        JSONValue.object(self).serialized()
    }
}
