import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Issue 8, finding 15: the admin API took duplicate members (whichever copy the decoder kept won) and ignored unknown
/// ones (a misspelt member was dropped without a word). Both are now a 400 naming the member, and nothing changes.
@Suite("Admin API: strict JSON bodies")
struct AdminStrictJSONTests {
    @Test(
        "a client registration naming a member twice, or a member it does not have, is 400 naming the member",
        arguments: [
            (
                #"{"client_id": "x", "client_id": "shop", "redirect_uris": ["https://a.example/cb"]}"#,
                "client_id is given more than once"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "kind": "public", "kind": "confidential"}"#,
                "kind is given more than once"
            ),
            (
                #"{"client_id": "x", "redirect_uri": ["https://a.example/cb"], "redirect_uris": ["https://a.example/cb"]}"#,
                "redirect_uri is not a member of this request"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "response_types": ["token"]}"#,
                "response_types is not a member of this request"
            ),
        ])
    func clientRefused(_ body: String, _ description: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let response = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
            #expect(response["error_description"] == description)
            #expect(try await fixture.provider.store.client(id: "x") == nil)
            #expect(try await fixture.provider.store.client(id: "shop") == nil)
        }
    }

    @Test("a user naming its password twice, or a member it does not have, is 400 naming the member; no user is made")
    func userRefused() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refusals = [
                (
                    #"{"email": "eve@example.com", "password": "first password 1", "password": "second password 2"}"#,
                    "password is given more than once"
                ),
                (
                    #"{"email": "eve@example.com", "password": "a good long password", "is_admin": true}"#,
                    "is_admin is not a member of this request"
                ),
            ]
            for (body, description) in refusals {
                let response = try await fixture.admin(.post, "/admin/users", token: token, json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response["error_description"] == description, "\(body)")
                #expect(!response.text.contains("password 1") && !response.text.contains("long password"))
            }
            #expect(try await fixture.provider.store.user(email: "eve@example.com") == nil)
        }
    }

    @Test("a patch naming a member twice is 400 naming it, and changes nothing")
    func patchRefused() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let response = try await fixture.admin(
                .patch, "/admin/users/\(TokenFixture.user.id)", token: token,
                json: #"{"name": "Mallory", "name": null}"#)
            #expect(response.status == .badRequest)
            #expect(response["error_description"] == "name is given more than once")
            #expect(try await fixture.provider.store.user(id: TokenFixture.user.id) == TokenFixture.user)
        }
    }

    @Test("a member the body declares is accepted; one it does not, even a Swift property name, is refused")
    func declaredMembers() {
        #expect(AdminJSON.refusal(of: Data(#"{"name": null}"#.utf8), as: AdminUserPatch.self) == nil)
        #expect(
            AdminJSON.refusal(of: Data(#"{"changes": {}}"#.utf8), as: AdminUserPatch.self)
                == "changes is not a member of this request")
    }

    @Test("a nested body is as strict: an undeclared member of a registration's branding is refused by its path")
    func nestedMembers() {
        let json = ##"{"client_id": "x", "redirect_uris": [], "branding": {"theme": "dark", "colour": "#000000"}}"##
        #expect(
            AdminJSON.refusal(of: Data(json.utf8), as: AdminClientRequest.self)
                == "branding.colour is not a member of this request")
        let declared = #"{"client_id": "x", "branding": {"theme": "dark"}}"#
        #expect(AdminJSON.refusal(of: Data(declared.utf8), as: AdminClientRequest.self) == nil)
    }
}
