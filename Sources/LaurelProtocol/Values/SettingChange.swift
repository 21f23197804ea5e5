/// What a request asks to do with a setting that can be cleared: leave it alone (field absent) or
/// set it, where `set(nil)` clears it (field given as JSON `null`).
public enum SettingChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case keep
    case set(Value?)
}
