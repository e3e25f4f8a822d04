import Foundation
import LimenOIDC

/// The provider's time as the device best knows it: the device's clock plus the offset last measured from the `Date`
/// header of an answer from the issuer's origin (server time minus device time when the answer arrived).
///
/// Every time decision of an ``AuthClient`` reads it (``Configuration/now`` of its configuration): a DPoP proof's
/// `iat`, an ID token's `iat` and `exp`, whether an access token needs refreshing. So a device whose clock is ten
/// minutes off still signs in, proves, and refreshes when the server expects it to.
///
/// Only the issuer's answers count (another host's clock says nothing about the provider's); the latest measure wins,
/// and one under ``threshold`` (a `Date` has whole seconds, and the answer took time to arrive) counts as no offset.
final class ServerClock: Sendable {
    /// The offset below which the device's clock is taken as right, in seconds.
    static let threshold: TimeInterval = 2

    private let deviceNow: @Sendable () -> Date
    private let issuerOrigin: String?
    private let measured = LockedValue<TimeInterval>(0)

    /// The clock of the provider at `issuer`, estimated from the device's `deviceNow`.
    init(issuer: URL, deviceNow: @escaping @Sendable () -> Date) {
        self.deviceNow = deviceNow
        self.issuerOrigin = issuer.origin
    }

    /// The server's time now, as estimated.
    func now() -> Date {
        deviceNow().addingTimeInterval(offset)
    }

    /// The current estimate: server time minus device time, in seconds.
    var offset: TimeInterval { measured.withLock { $0 } }

    /// Takes a new measure from `response`, the answer to a request to `url`, when it comes from the issuer's origin
    /// and has a valid `Date`.
    func observe(_ response: HTTPResponse, from url: URL) {
        guard let serverDate = response.date, let origin = url.origin, origin == issuerOrigin else { return }
        let offset = serverDate.timeIntervalSince(deviceNow())
        measured.withLock { $0 = abs(offset) < Self.threshold ? 0 : offset }
    }
}

/// A transport that shows every answer to a ``ServerClock`` before returning it.
struct ServerClockTransport: HTTPTransport {
    /// The transport that sends.
    let base: any HTTPTransport
    /// The clock that learns from the answers.
    let clock: ServerClock

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        let response = try await base.send(request)
        clock.observe(response, from: request.url)
        return response
    }
}
