import Foundation
import LimenOIDC
import LimenTestSupport
import Testing

@testable import Limen

/// The provider's clock estimated from the `Date` of its answers (``ServerClock``).
@Suite("Clock skew from the issuer's Date header")
struct ServerClockTests {
    static let issuer = URL(string: "https://id.example.com")!
    static let device = TestNow()

    func answer(at date: Date) -> HTTPResponse {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return HTTPResponse(status: 200, headers: ["Date": formatter.string(from: date)])
    }

    @Test("an issuer's answer ten minutes ahead moves the clock ten minutes ahead; a later answer replaces it")
    func measures() {
        let clock = ServerClock(issuer: Self.issuer, deviceNow: { Self.device.now })
        clock.observe(
            answer(at: Self.device.now.addingTimeInterval(600)), from: Self.issuer.appendingPathComponent("token"))
        #expect(clock.offset == 600)
        #expect(clock.now() == Self.device.now.addingTimeInterval(600))
        clock.observe(answer(at: Self.device.now.addingTimeInterval(-600)), from: Self.issuer)
        #expect(clock.offset == -600)
    }

    @Test("an offset under two seconds is no offset")
    func ignoresSmallOffsets() {
        let clock = ServerClock(issuer: Self.issuer, deviceNow: { Self.device.now })
        clock.observe(answer(at: Self.device.now.addingTimeInterval(600)), from: Self.issuer)
        clock.observe(answer(at: Self.device.now.addingTimeInterval(1)), from: Self.issuer)
        #expect(clock.offset == 0)
    }

    @Test(
        "another origin's answer, or one without a valid Date, changes nothing",
        arguments: ["https://api.example.com/v1", "http://id.example.com/token", "https://id.example.com:8443/token"])
    func ignoresOtherOrigins(url: String) throws {
        let clock = ServerClock(issuer: Self.issuer, deviceNow: { Self.device.now })
        clock.observe(answer(at: Self.device.now.addingTimeInterval(600)), from: try #require(URL(string: url)))
        clock.observe(HTTPResponse(status: 200, headers: ["Date": "yesterday"]), from: Self.issuer)
        clock.observe(HTTPResponse(status: 200), from: Self.issuer)
        #expect(clock.offset == 0)
    }
}
