import LaurelJSON

extension JSONWriter {
    /// A day as a `YYYY-MM-DD` string, written in place: answers and stored rows carry several, and a `String` made
    /// for each was an allocation and a copy.
    public mutating func day(_ day: LocalDay) {
        let date = day.components
        guard LocalDay.hasFourDigitYear(date) else { return string(day.description) }
        string(ascii: 10) { LocalDay.writeDescription(of: date, into: $0, at: 0) }
    }

    public mutating func field(_ name: StaticString, _ day: LocalDay) {
        let date = day.components
        guard LocalDay.hasFourDigitYear(date) else {
            key(name)
            return string(day.description)
        }
        field(name, ascii: 10) { LocalDay.writeDescription(of: date, into: $0, at: 0) }
    }

    /// A member only when there is a day (absent, not `null`, otherwise).
    public mutating func field(_ name: StaticString, ifPresent day: LocalDay?) {
        if let day { field(name, day) }
    }
}
