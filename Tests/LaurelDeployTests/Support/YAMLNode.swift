import Yams

/// A YAML value as the deployment checks read it, from Yams' document tree: a scalar (always text; YAML's typing
/// of plain scalars does not matter for these checks), a sequence, a mapping that keeps its key order, or nothing.
enum YAMLNode: Equatable, Sendable {
    case null
    case scalar(String)
    case sequence([YAMLNode])
    case mapping(YAMLMapping)

    /// Reads a whole YAML document.
    static func parse(_ text: String) throws -> YAMLNode {
        guard let root = try Yams.compose(yaml: text) else { return .null }
        return try YAMLNode(root)
    }

    private init(_ node: Yams.Node) throws {
        switch node {
        case .scalar(let scalar):
            self = node.null != nil && scalar.style == .plain ? .null : .scalar(scalar.string)
        case .sequence(let items):
            self = .sequence(try items.map(YAMLNode.init))
        case .mapping(let pairs):
            var mapping = YAMLMapping()
            for (key, value) in pairs {
                guard let name = key.string, mapping.add(name, try YAMLNode(value)) else {
                    throw YAMLError.duplicateOrNonTextKey(String(describing: key))
                }
            }
            self = .mapping(mapping)
        case .alias:
            throw YAMLError.alias
        }
    }

    enum YAMLError: Error {
        case duplicateOrNonTextKey(String)
        case alias
    }

    var scalar: String? {
        if case .scalar(let text) = self { return text }
        return nil
    }

    var sequence: [YAMLNode]? {
        if case .sequence(let items) = self { return items }
        return nil
    }

    var mapping: YAMLMapping? {
        if case .mapping(let mapping) = self { return mapping }
        return nil
    }

    /// The value of `key` when this is a mapping.
    subscript(key: String) -> YAMLNode? {
        mapping?[key]
    }
}

/// A YAML mapping with its keys in file order.
struct YAMLMapping: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        let key: String
        let value: YAMLNode
    }

    private(set) var entries: [Entry] = []

    var keys: [String] { entries.map(\.key) }

    subscript(key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.value
    }

    /// Adds an entry; false when the key is already there.
    mutating func add(_ key: String, _ value: YAMLNode) -> Bool {
        guard self[key] == nil else { return false }
        entries.append(Entry(key: key, value: value))
        return true
    }
}
