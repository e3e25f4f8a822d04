import Foundation
import LimenWire

extension TokenClient {
    /// Starts a device authorization (RFC 8628 §3.1): returns the user code and where the user enters it.
    public func authorizeDevice(scopes: [String]) async throws(OIDCError) -> DeviceAuthorization {
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw .unsupported("the device authorization grant")
        }
        let scope = (["openid"] + scopes.filter { $0 != "openid" }).joined(separator: " ")
        let request = authentication.formRequest(url: endpoint, fields: [("scope", scope)])
        return try await EndpointResponse.decode(
            DeviceAuthorization.self,
            sending: request,
            through: transport,
            endpoint: "device_authorization"
        )
    }

    /// Polls the token endpoint until the user approves or denies, or the device code expires (RFC 8628 §3.4–3.5).
    ///
    /// `authorization_pending` waits one interval; `slow_down` adds five seconds to the interval for this and every
    /// later poll; `access_denied` and `expired_token` end the wait with ``OIDCError/oauth(_:)``. A transient
    /// network failure doubles the interval and keeps polling until the device code expires.
    /// - Parameters:
    ///   - authorization: What ``authorizeDevice(scopes:)`` returned.
    ///   - now: The current time; injected by tests.
    ///   - clock: Waits between polls; injected by tests (cancellation ends the polling).
    public func pollDeviceToken(
        _ authorization: DeviceAuthorization,
        now: @Sendable () -> Date = Date.init,
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws(OIDCError) -> TokenResponse {
        let deadline = now().addingTimeInterval(authorization.expiresIn)
        var interval = max(authorization.interval, 1)
        let fields = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ("device_code", authorization.deviceCode),
        ]
        while true {
            guard now().addingTimeInterval(interval) < deadline else {
                throw .oauth(OAuthError(error: .expiredToken, errorDescription: "the device code expired"))
            }
            do {
                try await clock.sleep(for: .milliseconds(Int64(interval * 1000)))
            } catch {
                throw .network(.cancelled)
            }
            do {
                return try await requestToken(fields)
            } catch .oauth(let error) where error.error == .authorizationPending {
                continue
            } catch .oauth(let error) where error.error == .slowDown {
                interval += 5
            } catch .network(let error) where error.isRetryable {
                interval *= 2
            }
        }
    }
}
