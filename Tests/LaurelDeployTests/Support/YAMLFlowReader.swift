/// Reads one value written on a single line of YAML: a quoted or plain scalar, or a flow sequence `[...]` or
/// mapping `{...}` of them.
struct YAMLFlowReader {
    let text: Substring
    let line: Int
    var index: Substring.Index

    init(text: Substring, line: Int) {
        self.text = text
        self.line = line
        self.index = text.startIndex
    }

    var atEnd: Bool {
        var probe = index
        while probe < text.endIndex, text[probe] == " " { probe = text.index(after: probe) }
        return probe == text.endIndex
    }

    private func error(_ reason: String) -> YAMLSubsetParser.ParseError {
        YAMLSubsetParser.ParseError(line: line, reason: reason)
    }

    private mutating func skipSpaces() {
        while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
    }

    private var current: Character? { index < text.endIndex ? text[index] : nil }

    mutating func value(inFlow: Bool = false) throws(YAMLSubsetParser.ParseError) -> YAMLNode {
        skipSpaces()
        switch current {
        case "[": return try flowSequence()
        case "{": return try flowMapping()
        case "\"", "'": return .scalar(try quoted())
        case nil: return .null
        default: return .scalar(plain(inFlow: inFlow))
        }
    }

    mutating func quoted() throws(YAMLSubsetParser.ParseError) -> String {
        guard let open = current else { throw error("expected a quoted scalar") }
        index = text.index(after: index)
        var result = ""
        while let character = current {
            index = text.index(after: index)
            if character == open {
                if open == "'" && current == "'" {
                    result.append("'")
                    index = text.index(after: index)
                    continue
                }
                return result
            }
            if character == "\\" && open == "\"" {
                guard let escaped = current else { break }
                index = text.index(after: index)
                switch escaped {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\", "/": result.append(escaped)
                default: throw error("unsupported escape \\\(escaped)")
                }
                continue
            }
            result.append(character)
        }
        throw error("unterminated quoted scalar")
    }

    private mutating func plain(inFlow: Bool) -> String {
        let start = index
        while let character = current {
            if inFlow && (character == "," || character == "]" || character == "}") { break }
            if inFlow && character == ":" {
                let next = text.index(after: index)
                if next == text.endIndex || text[next] == " " { break }
            }
            index = text.index(after: index)
        }
        return String(text[start..<index].trimmingTrailingSpaces())
    }

    private mutating func flowSequence() throws(YAMLSubsetParser.ParseError) -> YAMLNode {
        index = text.index(after: index)
        var items: [YAMLNode] = []
        skipSpaces()
        if current == "]" {
            index = text.index(after: index)
            return .sequence(items)
        }
        while true {
            items.append(try value(inFlow: true))
            skipSpaces()
            switch current {
            case ",": index = text.index(after: index)
            case "]":
                index = text.index(after: index)
                return .sequence(items)
            default: throw error("expected , or ] in a flow sequence")
            }
        }
    }

    private mutating func flowMapping() throws(YAMLSubsetParser.ParseError) -> YAMLNode {
        index = text.index(after: index)
        var mapping = YAMLMapping()
        skipSpaces()
        if current == "}" {
            index = text.index(after: index)
            return .mapping(mapping)
        }
        while true {
            guard case .scalar(let key) = try value(inFlow: true) else { throw error("a flow mapping key must be a scalar") }
            skipSpaces()
            guard current == ":" else { throw error("expected : in a flow mapping") }
            index = text.index(after: index)
            guard mapping.add(key, try value(inFlow: true)) else { throw error("the key \(key) appears twice") }
            skipSpaces()
            switch current {
            case ",": index = text.index(after: index)
            case "}":
                index = text.index(after: index)
                return .mapping(mapping)
            default: throw error("expected , or } in a flow mapping")
            }
        }
    }
}

extension Substring {
    func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[startIndex..<end]
    }
}
