import Foundation
import Testing

/// The release binaries are built one way everywhere (`scripts/build-release`): the scripts that serve, measure and
/// soak, and the image. Its flags apply to every module (SwiftNIO's too), and a build without them is another build.
@Suite struct ReleaseBuildTests {
    /// The repository's scripts and the image's Dockerfile, by path.
    private static func buildFiles() throws -> [(path: String, text: String)] {
        let scripts = try FileManager.default.contentsOfDirectory(atPath: RepositoryFiles.url("scripts").path)
        return try (scripts.sorted().map { "scripts/\($0)" } + ["deploy/Dockerfile"])
            .filter { !$0.hasSuffix(".md") }
            .map { ($0, try RepositoryFiles.text($0)) }
    }

    /// The lines of a script or Dockerfile that run something (comments left out).
    private static func commandLines(of text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    }

    @Test func everyReleaseBuildGoesThroughBuildRelease() throws {
        var callers: [String] = []
        for (path, text) in try Self.buildFiles() where path != "scripts/build-release" {
            for line in Self.commandLines(of: text) {
                #expect(!(line.contains("swift build") && line.contains("-c release")),
                        "\(path) builds release binaries itself: \(line.trimmingCharacters(in: .whitespaces))")
                if line.contains("scripts/build-release") { callers.append(path) }
            }
        }
        for path in ["scripts/serve", "scripts/bench", "scripts/bench-commit", "scripts/load-test", "scripts/soak", "deploy/Dockerfile"] {
            #expect(callers.contains(path), "\(path) does not build through scripts/build-release")
        }
    }

    /// A bench run measures the build made at its start: its last step (PostgreSQL's instructions a batch) used to
    /// build again, measuring whatever the tree held by then, and a build that failed lost the whole run's figures.
    @Test func aBenchRunMeasuresTheBuildItMadeAtItsStart() throws {
        let bench = try RepositoryFiles.text("scripts/bench")
        let builds = Self.commandLines(of: bench).filter { $0.contains("scripts/build-release") }
        #expect(builds.count == 1, "scripts/bench builds once: \(builds)")
        let counts = Self.commandLines(of: bench).filter { $0.contains("scripts/bench-commit") && !$0.contains("say ") }
        #expect(!counts.isEmpty && counts.allSatisfy { $0.contains("--no-build") }, "scripts/bench-commit is run on the start's build: \(counts)")
        let commit = try RepositoryFiles.text("scripts/bench-commit")
        let build = try #require(commit.range(of: "scripts/build-release"))
        // The build is skipped under --no-build, which the option sets.
        #expect(commit.contains("--no-build) build=0"))
        #expect(commit[..<build.lowerBound].hasSuffix("if [ \"$build\" -eq 1 ]; then\n        "))
    }

    @Test func exclusivityIsCheckedAtCompileTimeInEveryModuleAndTheRuntimeIsLinkedIn() throws {
        let text = try RepositoryFiles.text("scripts/build-release")
        let command = try #require(text.split(separator: "\n").first { $0.hasPrefix("exec swift build") })
        #expect(command.contains("-c release"))
        // -Xswiftc reaches every module's compilation; Package.swift's settings would reach the package's own only.
        #expect(command.contains("-Xswiftc -enforce-exclusivity=unchecked"))
        // The image's binary carries the Swift runtime and Foundation; the measured binaries are built the same way.
        #expect(command.contains("--static-swift-stdlib"))
        #expect(command.hasSuffix("\"$@\""), "the callers' arguments reach swift build")
    }
}
