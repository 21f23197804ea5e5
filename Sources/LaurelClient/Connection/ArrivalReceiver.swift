/// Takes a ``LaurelConnection``'s arrivals on the connection's event loop, as they are read, in place of
/// ``LaurelConnection/arrivals`` (see ``LaurelConnection/receiveArrivals(with:)``). For a caller that answers each
/// arrival at once, such as a closed-loop load driver sending its next request: it saves a task's wake-up per line,
/// and its writes start on the event loop that sends them. Both methods run on the event loop and must not block.
public protocol ArrivalReceiver: AnyObject, Sendable {
    /// A line no waiting request took, in the server's order.
    func received(_ arrival: LaurelConnection.Arrival)
    /// The connection ended; nothing more arrives.
    func connectionEnded()
}
