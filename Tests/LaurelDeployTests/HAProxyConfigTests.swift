import Testing

/// `deploy/haproxy.cfg`: several Laurel instances behind one TCP frontend.
@Suite struct HAProxyConfigTests {
    struct Section {
        let kind: String
        let name: String?
        var lines: [[String]] = []

        /// The first line starting with `keyword`, without it.
        func value(_ keyword: String...) -> [String]? {
            lines.first { Array($0.prefix(keyword.count)) == keyword }.map { Array($0.dropFirst(keyword.count)) }
        }
    }

    static let sectionKinds: Set<String> = ["global", "defaults", "frontend", "backend", "listen", "resolvers", "peers", "userlist"]

    static func sections(_ text: String) throws -> [Section] {
        var sections: [Section] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = raw.prefix { $0 != "#" }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first else { continue }
            let indented = raw.first == " " || raw.first == "\t"
            if !indented {
                #expect(sectionKinds.contains(first), "line \(offset + 1): unknown section \(first)")
                sections.append(Section(kind: first, name: words.dropFirst().first))
            } else {
                try #require(!sections.isEmpty, "line \(offset + 1) comes before any section")
                sections[sections.count - 1].lines.append(words)
            }
        }
        return sections
    }

    private static func config() throws -> [Section] {
        try sections(try RepositoryFiles.text("deploy/haproxy.cfg"))
    }

    @Test func aTCPFrontendSendsToADeclaredBackendOfLaurelInstances() throws {
        let sections = try Self.config()
        let frontend = try #require(sections.first { $0.kind == "frontend" }, "no frontend")
        let bind = try #require(frontend.value("bind")?.first, "the frontend binds nothing")
        #expect(bind.hasSuffix(":7420"), "the frontend listens on the protocol port: \(bind)")
        let target = try #require(frontend.value("default_backend")?.first, "the frontend has no default_backend")
        let backend = try #require(sections.first { $0.kind == "backend" && $0.name == target }, "backend \(target) is not declared")
        let servers = backend.lines.filter { $0.first == "server" }
        #expect(servers.count >= 2, "several instances")
        for server in servers {
            #expect(server.count >= 3 && server[2].contains(":"), "server lines name host:port: \(server)")
        }
        #expect(backend.value("balance") != nil)
    }

    @Test func theProxyCarriesTCPAndOutlastsTheServersIdleTimeout() throws {
        let sections = try Self.config()
        let defaults = try #require(sections.first { $0.kind == "defaults" }, "no defaults")
        #expect(defaults.value("mode") == ["tcp"], "the protocol is line-based TCP, not HTTP")
        for side in ["client", "server"] {
            let timeout = try #require(defaults.value("timeout", side)?.first, "no timeout \(side)")
            let seconds = try #require(Self.seconds(timeout), "timeout \(side) \(timeout) is not a duration")
            #expect(seconds > 300, "timeout \(side) must exceed the server's 300 s idle timeout so the server says BYE")
        }
    }

    @Test func tlsPassesThroughToInstancesThatTerminateIt() throws {
        let sections = try Self.config()
        let frontend = try #require(
            sections.first { $0.kind == "frontend" && $0.value("bind")?.first?.hasSuffix(":7443") == true }, "no TLS frontend on 7443")
        // Passthrough: the proxy holds no certificate (no `ssl crt` on the bind) and stays in TCP mode.
        #expect(frontend.value("bind")?.contains("ssl") == false, "TLS is terminated by the instances, not by the proxy")
        #expect(frontend.value("mode") == nil || frontend.value("mode") == ["tcp"])
        let target = try #require(frontend.value("default_backend")?.first)
        let backend = try #require(sections.first { $0.kind == "backend" && $0.name == target }, "backend \(target) is not declared")
        let servers = backend.lines.filter { $0.first == "server" }
        #expect(servers.count >= 2)
        #expect(servers.allSatisfy { $0.count >= 3 && $0[2].hasSuffix(":7443") }, "instances serve TLS on 7443: \(servers)")
        #expect(servers.allSatisfy { !$0.contains("ssl") }, "the proxy does not re-encrypt")
    }

    /// HAProxy durations: a number with an optional unit (ms, s, m, h, d; milliseconds without one).
    static func seconds(_ text: String) -> Double? {
        let digits = text.prefix { $0.isNumber }
        guard let number = Double(digits) else { return nil }
        switch text.dropFirst(digits.count) {
        case "", "ms": return number / 1000
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        default: return nil
        }
    }
}

extension HAProxyConfigTests {
    @Test func theWebSocketPortPassesThroughToo() throws {
        let config = try Self.config()
        let frontend = try #require(config.first { $0.kind == "frontend" && $0.value("bind")?.first?.hasSuffix(":7422") == true })
        let backend = try #require(config.first { $0.kind == "backend" && $0.name == frontend.value("default_backend")?.first })
        let servers = backend.lines.filter { $0.first == "server" }
        #expect(servers.count >= 2 && servers.allSatisfy { $0.count >= 3 && $0[2].hasSuffix(":7422") }, "\(servers)")
    }
}
