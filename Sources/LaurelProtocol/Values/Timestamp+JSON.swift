import Foundation
import LaurelJSON

extension JSONWriter {
    /// A moment as the protocol writes it (``Timestamp/format(_:)``), written in place: every LOG's answer carries
    /// one, and the `String` made for it was an allocation (its 20 to 24 bytes are too long for a small string) and
    /// a copy.
    public mutating func timestamp(_ moment: Date) {
        let parts = Timestamp.UTCParts(moment)
        guard let length = parts.writtenLength else { return string(parts.slowText) }
        string(ascii: length) { parts.write(into: $0) }
    }

    public mutating func field(_ name: StaticString, timestamp moment: Date) {
        let parts = Timestamp.UTCParts(moment)
        guard let length = parts.writtenLength else {
            key(name)
            return string(parts.slowText)
        }
        field(name, ascii: length) { parts.write(into: $0) }
    }

    /// A member only when there is a moment (absent, not `null`, otherwise).
    public mutating func field(_ name: StaticString, timestampIfPresent moment: Date?) {
        if let moment { field(name, timestamp: moment) }
    }
}
