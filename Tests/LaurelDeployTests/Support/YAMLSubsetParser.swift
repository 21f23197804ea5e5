/// Reads the part of YAML that a Compose file needs: block mappings and sequences nested by indentation (spaces
/// only), plain and quoted scalars, flow sequences and mappings on one line (`["CMD", "x"]`, `{}`), comments,
/// anchors (`&name`) and aliases (`*name`). Anything else (block scalars, tags, tabs for indentation, an alias
/// before its anchor, a key given twice) is an error, so a file that only looks right does not pass.
struct YAMLSubsetParser {
    struct ParseError: Error, CustomStringConvertible, Equatable {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    private struct Line {
        var indent: Int
        var text: Substring
        let number: Int
    }

    private var lines: [Line] = []
    private var position = 0
    private var anchors: [String: YAMLNode] = [:]

    static func parse(_ text: String) throws(ParseError) -> YAMLNode {
        var parser = YAMLSubsetParser()
        try parser.readLines(text)
        guard !parser.lines.isEmpty else { return .null }
        let node = try parser.block(indent: parser.lines[0].indent)
        if parser.position < parser.lines.count {
            let line = parser.lines[parser.position]
            throw ParseError(line: line.number, reason: "unexpected indentation")
        }
        return node
    }

    // MARK: Lines

    private mutating func readLines(_ text: String) throws(ParseError) {
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            var content = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let indent = content.prefix { $0 == " " }.count
            if content.dropFirst(indent).first == "\t" {
                throw ParseError(line: number, reason: "tabs cannot indent YAML")
            }
            content = try Self.removingComment(content.dropFirst(indent), line: number)
            let trimmed = content.trimmingTrailingSpaces()
            if trimmed.isEmpty { continue }
            if trimmed == "---" && lines.isEmpty { continue }
            lines.append(Line(indent: indent, text: trimmed, number: number))
        }
    }

    /// The text before a `#` that starts a comment: at the start or after a space, outside quotes.
    private static func removingComment(_ text: Substring, line: Int) throws(ParseError) -> Substring {
        var quote: Character?
        var previous: Character = " "
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == "\\" && open == "\"" {
                    index = text.index(after: index)
                    if index == text.endIndex { break }
                } else if character == open {
                    quote = nil
                }
            } else if character == "#" && (previous == " " || previous == "\t") {
                return text[..<index]
            } else if (character == "\"" || character == "'") && (previous == " " || previous == "[" || previous == "," || previous == "{"
                || index == text.startIndex || previous == ":" || previous == "-") {
                quote = character
            }
            previous = character
            index = text.index(after: index)
        }
        if quote != nil { throw ParseError(line: line, reason: "unterminated quoted scalar") }
        return text
    }

    // MARK: Blocks

    private mutating func block(indent: Int) throws(ParseError) -> YAMLNode {
        let line = lines[position]
        if line.indent != indent { throw ParseError(line: line.number, reason: "unexpected indentation") }
        return Self.isSequenceItem(line.text) ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    private static func isSequenceItem(_ text: Substring) -> Bool {
        text == "-" || text.hasPrefix("- ")
    }

    private mutating func sequence(indent: Int) throws(ParseError) -> YAMLNode {
        var items: [YAMLNode] = []
        while position < lines.count, lines[position].indent == indent, Self.isSequenceItem(lines[position].text) {
            let line = lines[position]
            let rest = line.text.dropFirst(1).drop { $0 == " " }
            if rest.isEmpty {
                position += 1
                items.append(try nested(under: indent, line: line.number, allowSameIndentSequence: false))
            } else if Self.keySeparator(in: rest) != nil || Self.isSequenceItem(rest) {
                // `- key: value` starts a mapping (or `- - x` a sequence) indented to where the item's text begins.
                lines[position] = Line(indent: indent + (line.text.count - rest.count), text: rest, number: line.number)
                items.append(try block(indent: lines[position].indent))
            } else {
                position += 1
                items.append(try inlineValue(rest, line: line.number))
            }
        }
        return .sequence(items)
    }

    private mutating func mapping(indent: Int) throws(ParseError) -> YAMLNode {
        var mapping = YAMLMapping()
        while position < lines.count, lines[position].indent == indent, !Self.isSequenceItem(lines[position].text) {
            let line = lines[position]
            guard let separator = Self.keySeparator(in: line.text) else {
                throw ParseError(line: line.number, reason: "expected `key: value`")
            }
            let key = try Self.key(line.text[..<separator], line: line.number)
            var rest = line.text[line.text.index(after: separator)...].drop { $0 == " " }
            position += 1
            var anchor: String?
            if rest.hasPrefix("&") {
                let name = rest.dropFirst().prefix { !$0.isWhitespace }
                guard !name.isEmpty else { throw ParseError(line: line.number, reason: "an anchor needs a name") }
                anchor = String(name)
                rest = rest.dropFirst(name.count + 1).drop { $0 == " " }
            }
            let value = rest.isEmpty
                ? try nested(under: indent, line: line.number, allowSameIndentSequence: true)
                : try inlineValue(rest, line: line.number)
            if let anchor { anchors[anchor] = value }
            guard mapping.add(key, value) else { throw ParseError(line: line.number, reason: "the key \(key) appears twice") }
        }
        if position < lines.count, lines[position].indent > indent {
            throw ParseError(line: lines[position].number, reason: "unexpected indentation")
        }
        return .mapping(mapping)
    }

    /// The block under a key or `-` with nothing after it: deeper lines, or (after a key) a sequence at the key's
    /// own indentation, which YAML allows; else nothing.
    private mutating func nested(under indent: Int, line: Int, allowSameIndentSequence: Bool) throws(ParseError) -> YAMLNode {
        guard position < lines.count else { return .null }
        let next = lines[position]
        if next.indent > indent { return try block(indent: next.indent) }
        if allowSameIndentSequence, next.indent == indent, Self.isSequenceItem(next.text) { return try sequence(indent: indent) }
        return .null
    }

    /// Where `key: value` splits: the first `:` followed by a space or the end, outside quotes and brackets.
    private static func keySeparator(in text: Substring) -> Substring.Index? {
        var quote: Character?
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                depth -= 1
            } else if character == ":" && depth == 0 && (next == text.endIndex || text[next] == " ") {
                return index
            }
            index = next
        }
        return nil
    }

    private static func key(_ text: Substring, line: Int) throws(ParseError) -> String {
        let trimmed = text.trimmingTrailingSpaces()
        if trimmed.isEmpty { throw ParseError(line: line, reason: "empty key") }
        if trimmed.first == "\"" || trimmed.first == "'" {
            var reader = YAMLFlowReader(text: trimmed, line: line)
            let key = try reader.quoted()
            guard reader.atEnd else { throw ParseError(line: line, reason: "text after a quoted key") }
            return key
        }
        return String(trimmed)
    }

    // MARK: Values on one line

    private func inlineValue(_ text: Substring, line: Int) throws(ParseError) -> YAMLNode {
        if text.hasPrefix("*") {
            let name = String(text.dropFirst())
            guard let value = anchors[name] else { throw ParseError(line: line, reason: "alias *\(name) has no anchor before it") }
            return value
        }
        if let first = text.first, "|>!%@`".contains(first) {
            throw ParseError(line: line, reason: "\(first) is not part of the supported YAML")
        }
        var reader = YAMLFlowReader(text: text, line: line)
        let value = try reader.value()
        guard reader.atEnd else { throw ParseError(line: line, reason: "unexpected text after a value") }
        return value
    }
}
