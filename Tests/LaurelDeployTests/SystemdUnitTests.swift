import Foundation
import Testing

/// `deploy/laurel.service`: a systemd unit with its three sections, each line a `Key=Value`, starting
/// `laurel serve` and stopping it with SIGTERM (the graceful shutdown).
@Suite struct SystemdUnitTests {
    /// Sections in file order, each with its keys and values (a key may repeat, as systemd allows).
    static func sections(_ text: String) throws -> [(name: String, entries: [(key: String, value: String)])] {
        var sections: [(name: String, entries: [(key: String, value: String)])] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                #expect(line.hasSuffix("]"), "line \(offset + 1): \(line)")
                sections.append((String(line.dropFirst().dropLast()), []))
                continue
            }
            let separator = try #require(line.firstIndex(of: "="), "line \(offset + 1) is not Key=Value: \(line)")
            let key = line[..<separator].trimmingCharacters(in: .whitespaces)
            #expect(!key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber }, "line \(offset + 1): key \(key)")
            try #require(!sections.isEmpty, "line \(offset + 1) comes before any section")
            sections[sections.count - 1].entries.append((key, line[line.index(after: separator)...].trimmingCharacters(in: .whitespaces)))
        }
        return sections
    }

    private static func unit() throws -> [(name: String, entries: [(key: String, value: String)])] {
        try sections(try RepositoryFiles.text("deploy/laurel.service"))
    }

    @Test func theUnitHasUnitServiceAndInstallSections() throws {
        let sections = try Self.unit()
        #expect(sections.map(\.name) == ["Unit", "Service", "Install"])
        let install = sections.first { $0.name == "Install" }?.entries ?? []
        #expect(install.contains { $0.key == "WantedBy" && !$0.value.isEmpty })
        let unit = sections.first { $0.name == "Unit" }?.entries ?? []
        #expect(unit.contains { $0.key == "Description" })
    }

    @Test func theServiceStartsLaurelServeAndStopsItGracefully() throws {
        let service = try #require(try Self.unit().first { $0.name == "Service" }?.entries, "no [Service]")
        let starts = service.filter { $0.key == "ExecStart" }
        #expect(starts.count == 1)
        let command = try #require(starts.first?.value.split(separator: " ").map(String.init))
        #expect(command.first?.hasPrefix("/") == true, "ExecStart needs an absolute path")
        #expect(command.first?.hasSuffix("/laurel") == true)
        #expect(command.dropFirst().first == "serve")
        if let signal = service.first(where: { $0.key == "KillSignal" })?.value {
            #expect(signal == "SIGTERM" || signal == "SIGINT", "the server shuts down gracefully only on SIGTERM or SIGINT")
        }
        for entry in service where entry.key.hasPrefix("Exec") {
            #expect(entry.value.hasPrefix("/"), "\(entry.key) needs an absolute path")
        }
    }
}
