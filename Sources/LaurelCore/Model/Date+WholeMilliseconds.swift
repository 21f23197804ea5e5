import Foundation

extension Date {
    /// Now, to the whole millisecond: the moment a change is decided at. Whatever shows it (an answer, a push, the
    /// store's microseconds read back and formatted) then shows the same instant to the millisecond.
    public static var nowInWholeMilliseconds: Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
