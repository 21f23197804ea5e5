import LaurelJSON
import LaurelStore

/// The subscription as clients see it and the trial; the rules live in SQL (`sql/0004_subscriptions.sql`) so
/// that the operators' functions and the server store the same SUBSCRIPTION pushes.
extension PostgresUserRecords {
    func subscriptionDocument() throws -> JSONObject {
        let row = try connection.query(
            "SELECT laurel.subscription_document($1::bigint)::text AS document", [userParameter]
        ).first.require()
        guard let text = row["document"] else { throw StoreError.unknownUser }
        guard case .object(let document) = try JSONParser.parse(text) else {
            throw StoreError.failed("the subscription document is not a JSON object")
        }
        return document
    }

    func startTrial() throws -> StoredPush? {
        let row = try connection.query("SELECT laurel.start_trial($1::bigint) AS seq", [userParameter]).first.require()
        guard let seq = try row.optionalInt("seq") else { return nil }
        guard let push = try pushes(after: Int64(seq) - 1, limit: 1).first, push.seq == Int64(seq) else {
            throw StoreError.failed("the trial's SUBSCRIPTION push \(seq) was not stored")
        }
        return push
    }
}
