import Foundation
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// What `guest_upgrade.py` prints.
private struct GuestUpgradeSummary: Decodable {
    let pages: [FlowPagesSummary.CheckedPage]
    let guestCode: String?
    let guestSession: Bool
    let accountCode: String?
    let callbacks: Int

    enum CodingKeys: String, CodingKey {
        case pages
        case guestCode = "guest_code"
        case guestSession = "guest_session"
        case accountCode = "account_code"
        case callbacks
    }
}

extension ChromiumPeerTests {
    @Test(
        "a guest made on the anonymous flow's page creates an account in the same browser and stays the same user, now with a verified address",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func guestUpgradesOnTheWeb() async throws {
        try await withMailedLiveServer { provider, issuer, peer in
            let client = try await ChromiumPeer.registerClient(in: provider)
            let email = "guest@example.com"
            let output = try await PythonPeer.run([
                ChromiumPeer.guestUpgradeScript.path, "--issuer", issuer, "--client-id", client.id, "--email", email,
                "--password", "a long enough password", "--mail-dir", peer.directory.path,
            ])
            let summary = try JSONDecoder().decode(GuestUpgradeSummary.self, from: output)
            #expect(summary.pages.map(\.page) == ["anonymous"])
            for page in summary.pages {
                #expect(page.passes > 10, "axe-core ran its rules on \(page.page)")
                #expect(page.violations.isEmpty, "\(page.page) at \(page.url): \(page.violations)")
            }
            #expect(summary.guestSession)
            #expect(summary.callbacks == 2)

            let subjects = try await [summary.guestCode, summary.accountCode].enumerated().asyncMap { index, code in
                let redemption = try await provider.store.redeemAuthorizationCode(
                    hash: RandomIdentifier.hash(try #require(code)), clientID: client.id,
                    grantID: "guest-upgrade-\(index)", now: provider.now())
                guard case .redeemed(let stored) = redemption else {
                    Issue.record("code \(index) is not in the store: \(redemption)")
                    return ""
                }
                return stored.subject
            }
            #expect(subjects[0] == subjects[1], "the account is the guest, upgraded")
            let user = try #require(try await provider.store.user(id: subjects[0]))
            #expect(user.email == email && user.emailVerified && user.authLevel == .verified)
            #expect(try await provider.store.users().count == 1, "no second user was made")
        }
    }
}

extension Sequence {
    /// The results of `transform` on each element, one after another.
    fileprivate func asyncMap<Result>(_ transform: (Element) async throws -> Result) async rethrows -> [Result] {
        var results: [Result] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
