import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The device grant's steps as a test drives them against the router.
extension SignInFixture {
    /// `POST path` with a form body and headers, read whole.
    func postForm(_ path: String, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws
        -> RecordedResponse
    {
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await client.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(string: FormEncoding.encode(fields))
        ) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// A device authorization started by the public `limen-cli` (or `clientID`); its device and user codes.
    func startDevice(clientID: String = "limen-cli", scope: String = "openid profile offline_access") async throws
        -> (deviceCode: String, userCode: String)
    {
        let response = try await postForm("/device_authorization", [("client_id", clientID), ("scope", scope)])
        #expect(response.status == .ok)
        return (try #require(response["device_code"]), try #require(response["user_code"]))
    }

    /// One poll of `/token` with the device code.
    func poll(_ deviceCode: String, clientID: String = "limen-cli") async throws -> RecordedResponse {
        try await postForm(
            "/token",
            [("grant_type", GrantType.deviceCode.rawValue), ("device_code", deviceCode), ("client_id", clientID)])
    }

    /// The stored authorization of a device code.
    func deviceRecord(_ deviceCode: String) async throws -> DeviceAuthorizationRecord? {
        try await provider.store.deviceAuthorization(deviceCodeHash: RandomIdentifier.hash(deviceCode))
    }
}

extension Browser {
    /// Opens `/device` and submits `userCode` through its form.
    mutating func enterUserCode(_ client: any TestClientProtocol, _ userCode: String) async throws -> Page {
        let form = try await send(client, "/device")
        return try await submit(client, form, to: "/device", [("user_code", userCode)])
    }

    /// Enters `userCode` signed in as the fixture's user, and answers the confirmation with `decision`.
    mutating func decideDevice(
        _ client: any TestClientProtocol,
        _ userCode: String,
        decision: String
    ) async throws -> Page {
        let signIn = try await enterUserCode(client, userCode)
        let confirmation = try await self.signIn(client, from: signIn)
        return try await submit(client, confirmation, to: "/consent", [("decision", decision)])
    }
}
