import Testing

/// `docker-compose.yml` (operations.md "Files at the top of the repository"): PostgreSQL with a health check, a
/// one-shot migration once it is healthy, and the server once the migration has finished.
@Suite struct DockerComposeTests {
    private static func compose() throws -> YAMLNode {
        try YAMLNode.parse(try RepositoryFiles.text("docker-compose.yml"))
    }

    private static func service(_ name: String) throws -> YAMLNode {
        try #require(try compose()["services"]?[name], "docker-compose.yml has no service \(name)")
    }

    @Test func theServicesArePostgresMigrateAndLaurel() throws {
        let services = try #require(try Self.compose()["services"]?.mapping, "docker-compose.yml has no services")
        for name in ["postgres", "migrate", "laurel"] {
            #expect(services[name]?.mapping != nil, "service \(name)")
        }
    }

    @Test func postgresHasAHealthCheck() throws {
        let postgres = try Self.service("postgres")
        #expect(postgres["image"]?.scalar?.hasPrefix("postgres:") == true)
        let healthcheck = try #require(postgres["healthcheck"]?.mapping, "postgres has no healthcheck")
        let test = try #require(healthcheck["test"]?.sequence?.compactMap { $0.scalar }, "the healthcheck has no test list")
        #expect(["CMD", "CMD-SHELL"].contains(test.first ?? ""))
        #expect(test.dropFirst().contains { $0.contains("pg_isready") })
        for setting in ["interval", "timeout", "retries"] {
            #expect(healthcheck[setting]?.scalar != nil, "healthcheck \(setting)")
        }
    }

    /// A burst of LOGs after a quiet spell must not wait for WAL segments to be created and zero-filled.
    @Test func postgresKeepsWalSegmentsAhead() throws {
        let command = try Self.service("postgres")["command"]?.sequence?.compactMap { $0.scalar } ?? []
        #expect(command.first == "postgres")
        #expect(command.contains("min_wal_size=1GB"), "postgres runs with min_wal_size=1GB: \(command)")
    }

    @Test func migrateWaitsForAHealthyPostgresAndLaurelForTheMigration() throws {
        let migrate = try Self.service("migrate")
        #expect(migrate["depends_on"]?["postgres"]?["condition"] == .scalar("service_healthy"))
        #expect(migrate["command"]?.sequence?.first == .scalar("migrate"))
        #expect(migrate["restart"] == .scalar("no"), "a one-shot job")

        let laurel = try Self.service("laurel")
        #expect(laurel["depends_on"]?["migrate"]?["condition"] == .scalar("service_completed_successfully"))
        let command = laurel["command"]?.sequence?.compactMap { $0.scalar } ?? []
        #expect(command.first == "serve")
        #expect(command.contains("--no-migrate"), "the migrate service has applied the migrations")
        let ports = laurel["ports"]?.sequence?.compactMap { $0.scalar } ?? []
        #expect(ports.contains { $0.hasSuffix(":7420") }, "the protocol port is published")
    }

    @Test func everyDependencyAndVolumeIsDeclared() throws {
        let compose = try Self.compose()
        let services = try #require(compose["services"]?.mapping)
        let volumes = compose["volumes"]?.mapping?.keys ?? []
        for entry in services.entries {
            let dependencies = entry.value["depends_on"]?.mapping?.keys ?? entry.value["depends_on"]?.sequence?.compactMap({ $0.scalar }) ?? []
            for dependency in dependencies {
                #expect(services[dependency] != nil, "\(entry.key) depends on an unknown service \(dependency)")
            }
            let mounts = entry.value["volumes"]?.sequence?.compactMap({ $0.scalar }) ?? []
            for mount in mounts {
                let source = String(mount.prefix { $0 != ":" })
                if !source.hasPrefix(".") && !source.hasPrefix("/") {
                    #expect(volumes.contains(source), "\(entry.key) mounts an undeclared volume \(source)")
                }
            }
        }
    }

    @Test func theServerImagesBuildFromTheRepositorysDockerfile() throws {
        for name in ["migrate", "laurel"] {
            let build = try #require(try Self.service(name)["build"], "\(name) has no build")
            let context = build["context"]?.scalar ?? "."
            let dockerfile = try #require(build["dockerfile"]?.scalar, "\(name) names no Dockerfile")
            let path = context == "." ? dockerfile : "\(context)/\(dockerfile)"
            #expect(RepositoryFiles.exists(path), "\(name) builds from \(path), which is missing")
        }
    }

    @Test func theServerConnectsToTheComposePostgres() throws {
        for name in ["migrate", "laurel"] {
            let environment = try #require(try Self.service(name)["environment"]?.mapping, "\(name) has no environment")
            let url = try #require(environment["LAUREL_DATABASE_URL"]?.scalar, "\(name) has no LAUREL_DATABASE_URL")
            #expect(url.hasPrefix("postgresql://") || url.hasPrefix("postgres://"))
            #expect(url.contains("@postgres:") || url.contains("@postgres/"), "\(name) does not point at the postgres service: \(url)")
        }
        let laurel = try Self.service("laurel")
        #expect(laurel["environment"]?["LAUREL_HOST"] == .scalar("0.0.0.0"), "the server must listen beyond the container")
    }
}
