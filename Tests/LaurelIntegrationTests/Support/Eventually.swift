/// Waiting for something that happens in the background (a listener's LISTEN, a connection slot freed), by
/// checking it now and then. The timeout only guards against a hang; tests never assert how long it took.
enum Eventually {
    /// Checks `condition` until it holds or `timeout` has passed; returns whether it held.
    static func holds(
        timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(20),
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: interval)
        }
        return try await condition()
    }
}
