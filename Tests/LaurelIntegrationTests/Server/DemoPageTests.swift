import Foundation
import LaurelJSON
import LaurelProtocol
import LaurelServer
import Testing

/// The live demo page in a real headless browser (Chromium from Debian, which scripts/setup-machine installs): opened
/// with a token and an activity in its address, it connects over WebSocket, logs, shows the UNLOCK, and then reports a
/// `share` event; a TCP connection of the same user receives both unlocks, `first_exercise` and `first_share`.
@Suite struct DemoPageTests {
    static func chromium() -> String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func aLogFromThePageIsShownThereAndReachesATCPConnection() async throws {
        let browserPath = try #require(Self.chromium(), "Chromium is missing: scripts/setup-machine installs it")
        let user = try await LaurelTestDatabase.createUser("demo-page")
        var configuration = ServerConfiguration(port: 0)
        configuration.webSocketPort = 0
        try await TestServer.withServer(configuration: configuration) { server in
            let phone = try await PushRecorder.authenticated(port: server.port, token: user.token)
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: profile) }
            let browser = Process()
            browser.executableURL = URL(fileURLWithPath: browserPath)
            browser.arguments = [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(profile.path)",
                "http://127.0.0.1:\(try #require(server.webSocketPort))/#token=\(user.token)&log=pushups",
            ]
            browser.standardOutput = FileHandle.nullDevice
            browser.standardError = FileHandle.nullDevice
            try browser.run()
            defer { browser.terminate() }
            let pushes = try await phone.wait(timeout: .seconds(60)) { lines in
                lines.contains { $0.kind == "UNLOCK" && $0.object["id"] == "first_share" }
            }
            let unlocked = pushes.filter { $0.kind == "UNLOCK" }.compactMap { $0.object["id"]?.stringValue }
            // first_exercise from the page's LOG; first_share from the event the page sends once it shows an unlock.
            #expect(unlocked.contains("first_exercise") && unlocked.contains("first_share"), "\(unlocked)")
        }
    }
}
