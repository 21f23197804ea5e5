import LaurelJSON

/// An error answer: a code for programs, a message for people and the details the spec lists for the code.
///
/// Rendered on the wire as `{"code": CODE, "message": TEXT, ...details}` by ``json``.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// Extra members of the error object, written after `code` and `message`.
    public var details: JSONObject

    public init(code: ErrorCode, message: String, details: JSONObject = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// The error object as sent: `code`, `message`, then the details in order.
    /// Detail keys named `code` or `message` are left out so they cannot shadow the real ones.
    public var json: JSONObject {
        var object: JSONObject = ["code": .string(code.rawValue), "message": .string(message)]
        for (key, value) in details where key != "code" && key != "message" {
            object[key] = value
        }
        return object
    }

    public var description: String {
        "\(code.rawValue): \(message)"
    }
}

extension ProtocolError {
    public static func badRequest(_ message: String = "malformed request line") -> ProtocolError {
        ProtocolError(code: .badRequest, message: message)
    }

    public static func unknownVerb(_ verb: String) -> ProtocolError {
        ProtocolError(code: .unknownVerb, message: "unknown verb \(verb)", details: ["verb": .string(verb)])
    }

    public static func invalidArgument(field: String, message: String) -> ProtocolError {
        ProtocolError(code: .invalidArgument, message: message, details: ["field": .string(field)])
    }

    public static func notAuthenticated(_ message: String = "authenticate first with AUTH") -> ProtocolError {
        ProtocolError(code: .notAuthenticated, message: message)
    }

    public static func authFailed(_ message: String = "wrong or revoked token") -> ProtocolError {
        ProtocolError(code: .authFailed, message: message)
    }

    public static func notFound(field: String, message: String? = nil) -> ProtocolError {
        ProtocolError(code: .notFound, message: message ?? "\(field) not found", details: ["field": .string(field)])
    }

    public static func conflict(_ message: String) -> ProtocolError {
        ProtocolError(code: .conflict, message: message)
    }

    public static func premiumRequired(feature: String, trialAvailable: Bool, message: String? = nil) -> ProtocolError {
        ProtocolError(
            code: .premiumRequired,
            message: message ?? "\(feature) needs premium",
            details: ["feature": .string(feature), "trial_available": .bool(trialAvailable)]
        )
    }

    public static func rateLimited(retryAfterMs: Int, message: String = "too many requests") -> ProtocolError {
        ProtocolError(code: .rateLimited, message: message, details: ["retry_after_ms": .int(retryAfterMs)])
    }

    /// A list or document over its limit; `field` names the list when there is one.
    public static func tooLarge(limit: Int, field: String? = nil, message: String? = nil) -> ProtocolError {
        var details: JSONObject = ["limit": .int(limit)]
        if let field {
            details["field"] = .string(field)
        }
        return ProtocolError(code: .tooLarge, message: message ?? "over the limit of \(limit)", details: details)
    }

    public static func lineTooLong(limit: Int) -> ProtocolError {
        ProtocolError(
            code: .lineTooLong,
            message: "line longer than \(limit) bytes",
            details: ["limit": .int(limit)]
        )
    }

    public static func unavailable(_ message: String = "service unavailable, retry later") -> ProtocolError {
        ProtocolError(code: .unavailable, message: message, details: ["retryable": true])
    }

    public static func `internal`(_ message: String = "internal error") -> ProtocolError {
        ProtocolError(code: .internal, message: message)
    }
}
