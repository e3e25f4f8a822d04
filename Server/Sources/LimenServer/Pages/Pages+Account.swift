import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire

extension Pages {
    /// The account page: who is signed in, the profile fields (those the user may edit in a form, the others as text),
    /// the encrypted fields ("encrypted on your device", and whether they hold a value), the passkeys and two-step sign-in
    /// (``AccountSecuritySection``), and signing out everywhere.
    static func account(
        email: String,
        profile: ProfileRecord,
        schema: ProfileSchema,
        csrf: String,
        security: AccountSecuritySection,
        notice: String? = nil,
        error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let names = schema.fields.keys.sorted()
        let fields = names.compactMap { name -> AccountField? in
            guard let field = schema.fields[name], !field.isEncrypted else { return nil }
            return AccountField(name: name, field: field, value: profile.data[name])
        }
        let encrypted = names.compactMap { name -> EncryptedField? in
            guard let field = schema.fields[name], field.isEncrypted else { return nil }
            return EncryptedField(label: field.displayName, isSet: profile.data[name] != nil)
        }
        let page = AccountPage(
            lang: PageLanguage.tag(uiLocales: nil), title: "Your account", email: email, csrf: csrf,
            revision: profile.revision, fields: fields, hasEditable: fields.contains(where: \.editable),
            encrypted: encrypted, security: security, script: PasskeyScript.text, notice: notice, error: error)
        return render(
            page, template: "account", title: page.title, status: status,
            contentSecurityPolicy: PasskeyScript.contentSecurityPolicy)
    }

    /// `/account` without a browser session.
    static func accountSignedOut() -> Response {
        message(
            title: "Not signed in",
            message: "Sign in to an app that uses this server, then come back to see your account.",
            status: .unauthorized)
    }

    /// After the account was deleted.
    static func accountDeleted() -> Response {
        message(
            title: "Account deleted",
            message: "Your account, its profile and every session of it are gone. Apps that used it are signed out.",
            status: .ok, isError: false)
    }

    /// After signing out everywhere.
    static func signedOutEverywhere() -> Response {
        message(
            title: "Signed out everywhere",
            message: "Every session of your account has ended: this browser, other browsers and apps.",
            status: .ok, isError: false)
    }
}

extension PageTemplates {
    /// The account page: the profile form, encrypted fields, signing out everywhere and deleting the account; every
    /// form posts to `account`.
    static let account = """
        {{<layout}}{{$content}}
        <p class="account">Signed in as {{email}}</p>
        {{#notice}}<p class="saved" role="status" id="form-notice">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>{{/error}}
        <form method="post" action="account">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="revision" value="{{revision}}">
        {{#fields}}{{#editable}}<label for="field-{{name}}">{{label}}</label>
        {{#isBoolean}}<select id="field-{{name}}" name="field.{{name}}">
        <option value="">–</option>
        <option value="true"{{#isTrue}} selected{{/isTrue}}>Yes</option>
        <option value="false"{{#isFalse}} selected{{/isFalse}}>No</option>
        </select>{{/isBoolean}}{{^isBoolean}}<input id="field-{{name}}" name="field.{{name}}" type="{{inputType}}" \
        value="{{value}}"{{#isNumber}} step="any"{{/isNumber}}>{{/isBoolean}}
        {{/editable}}{{^editable}}<p class="readonly" id="field-{{name}}"><strong>{{label}}</strong> {{value}}</p>
        {{/editable}}{{/fields}}
        {{#hasEditable}}<button type="submit" name="intent" value="save">Save</button>{{/hasEditable}}
        </form>
        {{#encrypted}}<p class="encrypted"><strong>{{label}}</strong>: encrypted on your device\
        {{^isSet}} (no value yet){{/isSet}}</p>
        {{/encrypted}}{{#security}}{{>account-security}}{{/security}}
        <h2 id="sessions-heading">Sessions</h2>
        <form method="post" action="account" aria-labelledby="sessions-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" name="intent" value="sign_out_everywhere" class="secondary">Sign out everywhere</button>
        </form>
        <h2 id="delete-heading">Delete your account</h2>
        <form method="post" action="account" aria-labelledby="delete-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <p id="delete-warning">This deletes your account, its profile and every session at once. It cannot be undone.</p>
        <label for="delete-password">Your password</label>
        <input id="delete-password" name="password" type="password" autocomplete="current-password" required \
        aria-describedby="delete-warning">
        <button type="submit" name="intent" value="delete_account" class="danger">Delete my account</button>
        </form>
        <script>{{{script}}}</script>
        {{/content}}{{/layout}}
        """
}

/// The values of the account page.
private struct AccountPage {
    var lang: String
    var title: String
    var email: String
    var csrf: String
    var revision: Int
    var fields: [AccountField]
    var hasEditable: Bool
    var encrypted: [EncryptedField]
    var security: AccountSecuritySection
    var script: String
    var notice: String?
    var error: String?
}

/// An encrypted field on the account page: its label, and whether it holds a value (never shown).
private struct EncryptedField {
    var label: String
    var isSet: Bool
}

/// One field in clear on the account page: editable in the form when the user may edit it and it is a plain value
/// (string, number, date, boolean); otherwise shown as text (objects and arrays as JSON).
private struct AccountField {
    var name: String
    var label: String
    var value: String
    var editable: Bool
    var inputType: String
    var isBoolean: Bool
    var isNumber: Bool
    var isTrue: Bool
    var isFalse: Bool

    init(name: String, field: ProfileField, value: JSONValue?) {
        self.name = name
        label = field.displayName
        self.value =
            switch value {
            case .string(let text)?: text
            case nil, .null?: ""
            case let other?: String(decoding: other.serialized(), as: UTF8.self)
            }
        editable = field.isUserEditable && AccountForm.editableTypes.contains(field.type)
        inputType = field.type == .number ? "number" : "text"
        isBoolean = field.type == .boolean
        isNumber = field.type == .number
        isTrue = value == .bool(true)
        isFalse = value == .bool(false)
    }
}
