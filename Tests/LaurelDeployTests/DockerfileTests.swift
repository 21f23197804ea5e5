import Foundation
import Testing

/// `deploy/Dockerfile`: every line a Dockerfile instruction, FROM first, stages and copies that fit together.
@Suite struct DockerfileTests {
    /// One instruction, its continuation lines (`\` at the end) joined.
    struct Instruction {
        let keyword: String
        let arguments: String
        let line: Int
    }

    static let knownInstructions: Set<String> = [
        "FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME", "USER", "WORKDIR", "ARG",
        "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL", "MAINTAINER",
    ]

    static func instructions(_ text: String) -> [Instruction] {
        var result: [Instruction] = []
        var pending = ""
        var start = 0
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty && (line.isEmpty || line.hasPrefix("#")) { continue }
            if !pending.isEmpty && line.hasPrefix("#") { continue }  // comments inside a continued instruction
            if pending.isEmpty { start = offset + 1 }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            pending += line
            let keyword = String(pending.prefix { !$0.isWhitespace })
            let arguments = pending.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces)
            result.append(Instruction(keyword: keyword.uppercased(), arguments: arguments, line: start))
            pending = ""
        }
        return result
    }

    private static func dockerfile() throws -> [Instruction] {
        instructions(try RepositoryFiles.text("deploy/Dockerfile"))
    }

    @Test func everyLineIsAKnownInstructionAndFromComesFirst() throws {
        let instructions = try Self.dockerfile()
        #expect(!instructions.isEmpty)
        #expect(instructions.first?.keyword == "FROM")
        for instruction in instructions {
            #expect(Self.knownInstructions.contains(instruction.keyword), "line \(instruction.line): \(instruction.keyword)")
            #expect(!instruction.arguments.isEmpty, "line \(instruction.line): \(instruction.keyword) without arguments")
        }
    }

    @Test func copiesFromStagesNameEarlierStagesAndLocalCopiesExist() throws {
        var stages: [String] = []
        for instruction in try Self.dockerfile() {
            let words = instruction.arguments.split(separator: " ").map(String.init)
            switch instruction.keyword {
            case "FROM":
                if words.count == 3, words[1].uppercased() == "AS" { stages.append(words[2]) }
            case "COPY", "ADD":
                if let from = words.first(where: { $0.hasPrefix("--from=") }) {
                    let stage = String(from.dropFirst("--from=".count))
                    #expect(stages.contains(stage), "line \(instruction.line) copies from an unknown stage \(stage)")
                } else {
                    let sources = words.filter { !$0.hasPrefix("--") }.dropLast()
                    for source in sources where !source.contains("*") {
                        #expect(RepositoryFiles.exists(source), "line \(instruction.line) copies \(source), which is missing")
                    }
                }
            default:
                break
            }
        }
        #expect(!stages.isEmpty, "a build stage produces the binary")
    }

    @Test func theImageRunsLaurelServeAndExposesItsPort() throws {
        let instructions = try Self.dockerfile()
        let entrypoint = try #require(instructions.last { $0.keyword == "ENTRYPOINT" }, "no ENTRYPOINT")
        let command = try #require(instructions.last { $0.keyword == "CMD" }, "no CMD")
        let entry = try Self.execForm(entrypoint)
        let arguments = try Self.execForm(command)
        #expect(entry.first?.hasSuffix("laurel") == true)
        #expect(arguments.first == "serve")
        let exposed = instructions.filter { $0.keyword == "EXPOSE" }.flatMap { $0.arguments.split(separator: " ").map(String.init) }
        #expect(exposed.contains("7420"))
        #expect(instructions.contains { $0.keyword == "USER" && $0.arguments != "root" }, "the server does not run as root")
    }

    /// The JSON array of an exec-form CMD or ENTRYPOINT.
    static func execForm(_ instruction: Instruction) throws -> [String] {
        let parsed = try JSONSerialization.jsonObject(with: Data(instruction.arguments.utf8))
        return try #require(parsed as? [String], "line \(instruction.line): \(instruction.keyword) is not a JSON array of strings")
    }
}
