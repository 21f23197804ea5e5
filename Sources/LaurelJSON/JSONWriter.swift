/// Writes compact JSON text straight into bytes, without building a ``JSONValue`` tree first: what the busiest
/// answers (a LOG's) and the store's statements are written with. Commas between members and elements are placed
/// by the writer; strings are escaped as ``JSONValue/serialized()`` escapes them, so both write the same text.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.field("xp", 120)
/// json.key("unlocked"); json.beginArray(); json.endArray()
/// json.endObject()   // {"xp":120,"unlocked":[]}
/// ```
public struct JSONWriter: Sendable {
    private var output: JSONOutputBytes
    /// How many containers are open (at most 64).
    private var depth = 0
    /// Bit d: the container open at depth d has a member or element already (the next one needs a comma).
    private var hasElement: UInt64 = 0
    /// A key was just written: the value that follows needs no comma.
    private var afterKey = false

    public init(capacity: Int = 256) {
        output = JSONOutputBytes(capacity: capacity)
    }

    /// A writer that writes on after the first `count` bytes of `storage` (room after them is used as it is):
    /// JSON inside a buffer of another format (a field of a binary batch) without a buffer of its own and a copy.
    /// ``handBack()`` returns the buffer.
    public init(continuing storage: consuming [UInt8], count: Int) {
        output = JSONOutputBytes(continuing: storage, count: count)
    }

    /// The buffer a ``init(continuing:count:)`` writer wrote into, the room after its bytes kept, and how many bytes
    /// it holds now: the writer's last use.
    public consuming func handBack() -> (storage: [UInt8], count: Int) { output.handBack() }

    /// The bytes written so far.
    public var bytes: [UInt8] { output.bytes }

    /// The bytes written, handed over without a copy (a batch of commits is kilobytes): the writer's last use.
    public consuming func finish() -> [UInt8] { output.finish() }

    /// The text written so far.
    public var text: String { output.text }

    // MARK: containers

    public mutating func beginObject() {
        beginValue()
        output.append(UInt8(ascii: "{"))
        open()
    }

    public mutating func endObject() {
        close()
        output.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        beginValue()
        output.append(UInt8(ascii: "["))
        open()
    }

    public mutating func endArray() {
        close()
        output.append(UInt8(ascii: "]"))
    }

    /// A member's name as written in the source; its value follows. Such names are copied as they are, unescaped
    /// (every member a LOG's answer and its stored row have is one: the busiest strings written), so they must hold
    /// no quote, backslash or control character.
    public mutating func key(_ name: StaticString) {
        let comma = takeComma()
        // One write for the comma, the quotes, the name and the colon.
        output.write(upTo: name.utf8CodeUnitCount + 4) { end in Self.writeKey(name, comma: comma, at: end) }
        afterKey = true
    }

    /// Writes `,"name":` (the comma when `comma`) at `start`; returns how many bytes it wrote.
    @inline(__always)
    private static func writeKey(_ name: StaticString, comma: Bool, at start: UnsafeMutablePointer<UInt8>) -> Int {
        name.withUTF8Buffer { utf8 in
            assert(!utf8.contains(where: JSONTextWriter.needsEscape), "\(name) needs escaping")
            let end = writeComma(comma, at: start)
            end.initialize(to: UInt8(ascii: "\""))
            if let name = utf8.baseAddress { (end + 1).update(from: name, count: utf8.count) }
            end[utf8.count + 1] = UInt8(ascii: "\"")
            end[utf8.count + 2] = UInt8(ascii: ":")
            return end - start + utf8.count + 3
        }
    }

    /// A member's name known only at run time (an activity's id, a tier), escaped as any string; its value follows.
    public mutating func key(runtime name: String) {
        key(runtime: name, after: "")
    }

    /// A member's name made of a fixed start (unescaped, as in ``key(_:)``) and a string that is escaped
    /// (`"activity:" + id`), written without making the whole name first.
    public mutating func key(runtime name: String, after prefix: StaticString) {
        beginValue()
        JSONTextWriter.writeString(name, after: prefix, into: &output)
        output.append(UInt8(ascii: ":"))
        afterKey = true
    }

    // MARK: values

    public mutating func string(_ value: String) {
        beginValue()
        JSONTextWriter.writeString(value, into: &output)
    }

    /// A string of `count` bytes that `body` writes in place, none of which needs escaping (a day, a time written
    /// digit by digit): no `String` is made for it.
    public mutating func string(ascii count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        beginValue()
        output.write(upTo: count + 2) { end in
            end.initialize(to: UInt8(ascii: "\""))
            body(UnsafeMutableBufferPointer(start: end + 1, count: count))
            end[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
    }

    public mutating func int(_ value: Int) {
        let comma = takeComma()
        // The comma and the number in one write (a batch's row has a dozen numbers in arrays).
        output.write(upTo: JSONTextWriter.maximumIntegerLength + 1) { start in
            let end = Self.writeComma(comma, at: start)
            return end - start + JSONTextWriter.writeDigits(of: value, at: end)
        }
    }

    /// An array of two integers, `[first,second]`, in one write with its comma (a board's score and when it was
    /// reached: every LOG stores four such pairs).
    public mutating func pair(_ first: Int, _ second: Int) {
        let comma = takeComma()
        output.write(upTo: 2 * JSONTextWriter.maximumIntegerLength + 4) { start in
            var end = Self.writeComma(comma, at: start)
            end.initialize(to: UInt8(ascii: "["))
            end += 1
            end += JSONTextWriter.writeDigits(of: first, at: end)
            end.initialize(to: UInt8(ascii: ","))
            end += 1
            end += JSONTextWriter.writeDigits(of: second, at: end)
            end.initialize(to: UInt8(ascii: "]"))
            return end - start + 1
        }
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        output.append(static: value ? "true" : "false")
    }

    public mutating func null() {
        beginValue()
        output.append(static: "null")
    }

    /// A double as ``JSONValue/serialized()`` writes it (non-finite as `null`).
    public mutating func double(_ value: Double) {
        value.isFinite ? raw(value.description) : null()
    }

    /// A value already written as JSON text elsewhere (a stored push's object, a kept answer).
    public mutating func raw(_ json: String) {
        beginValue()
        output.append(text: json)
    }

    /// A value written as JSON text in the source (a string literal with its quotes, say).
    public mutating func raw(static json: StaticString) {
        beginValue()
        output.append(static: json)
    }

    /// A value already written as JSON bytes.
    public mutating func raw(_ json: [UInt8]) {
        beginValue()
        json.withUnsafeBufferPointer { output.append(contentsOf: $0) }
    }

    /// A ``JSONValue`` tree (for the rare values that come as one).
    public mutating func value(_ value: JSONValue) {
        beginValue()
        value.writeText(into: &output)
    }

    // MARK: members

    public mutating func field(_ name: StaticString, _ value: String) {
        var text = value
        let written = text.withUTF8 { utf8 in
            // Most values (ids, names) need no escape: the member in one write.
            guard !JSONTextWriter.anyNeedsEscape(utf8) else { return false }
            let comma = takeComma()
            output.write(upTo: name.utf8CodeUnitCount + utf8.count + 6) { start in
                let end = start + Self.writeKey(name, comma: comma, at: start)
                end.initialize(to: UInt8(ascii: "\""))
                if let text = utf8.baseAddress { (end + 1).update(from: text, count: utf8.count) }
                end[utf8.count + 1] = UInt8(ascii: "\"")
                return end - start + utf8.count + 2
            }
            return true
        }
        if !written {
            key(name)
            string(value)
        }
    }

    public mutating func field(_ name: StaticString, _ value: Int) {
        let comma = takeComma()
        // The member in one write: a LOG's answer and row have some forty numbers.
        output.write(upTo: name.utf8CodeUnitCount + 4 + JSONTextWriter.maximumIntegerLength) { start in
            let end = start + Self.writeKey(name, comma: comma, at: start)
            return end - start + JSONTextWriter.writeDigits(of: value, at: end)
        }
    }

    public mutating func field(_ name: StaticString, _ value: Bool) {
        let comma = takeComma()
        // The member in one write: an answer has a few (`duplicate`, a streak's `atRisk`).
        output.write(upTo: name.utf8CodeUnitCount + 4 + 5) { start in
            let end = start + Self.writeKey(name, comma: comma, at: start)
            let literal: StaticString = value ? "true" : "false"
            literal.withUTF8Buffer { end.update(from: $0.baseAddress!, count: $0.count) }
            return end - start + literal.utf8CodeUnitCount
        }
    }

    /// A member whose value is a string of `count` bytes that `body` writes in place, none of which needs escaping
    /// (a day, a time written digit by digit): the member in one write, no `String` made for the value.
    public mutating func field(_ name: StaticString, ascii count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let comma = takeComma()
        output.write(upTo: name.utf8CodeUnitCount + 4 + count + 2) { start in
            let end = start + Self.writeKey(name, comma: comma, at: start)
            end.initialize(to: UInt8(ascii: "\""))
            body(UnsafeMutableBufferPointer(start: end + 1, count: count))
            end[count + 1] = UInt8(ascii: "\"")
            return end - start + count + 2
        }
    }

    /// A member only when there is a value (absent, not `null`, otherwise).
    public mutating func field(_ name: StaticString, ifPresent value: String?) {
        if let value { field(name, value) }
    }

    public mutating func field(_ name: StaticString, ifPresent value: Int?) {
        if let value { field(name, value) }
    }

    // MARK: commas

    private mutating func beginValue() {
        if takeComma() { output.append(UInt8(ascii: ",")) }
    }

    /// Writes the comma at `start` when `comma`; returns where what follows it goes.
    @inline(__always)
    private static func writeComma(_ comma: Bool, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard comma else { return start }
        start.initialize(to: UInt8(ascii: ","))
        return start + 1
    }

    /// Notes that a value begins here; returns whether a comma goes before it (written by the caller, so that a
    /// member's comma and name go out in one write).
    @inline(__always)
    private mutating func takeComma() -> Bool {
        if afterKey {
            afterKey = false
            return false
        }
        guard depth > 0 else { return false }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        defer { hasElement |= bit }
        return hasElement & bit != 0
    }

    private mutating func open() {
        precondition(depth < 64, "JSON nested more than 64 deep")
        depth += 1
        hasElement &= ~(1 << UInt64(depth - 1))
    }

    private mutating func close() {
        precondition(depth > 0, "closing a JSON container that is not open")
        depth -= 1
        afterKey = false
    }
}
