import Foundation
import LimenServerStorage
import LimenWire

/// What the account page shows of the user's passkeys and two-step sign-in (``AccountSecurityForms``).
struct AccountSecuritySection {
    /// The user's passkeys.
    var passkeys: [Passkey]
    /// The options of a new passkey's registration (`PublicKeyCredentialCreationOptionsJSON`), for ``PasskeyScript``.
    var registration: String
    /// Their challenge, sealed for the browser session (``AccountPasskeyChallenge``).
    var sealedRegistration: String
    /// Whether two-step sign-in is on.
    var twoStepEnabled: Bool
    /// How many recovery codes are left.
    var recoveryCodesLeft: Int
    /// The set-up of an authenticator app in progress.
    var setup: AccountSecurityOutcome.Setup?
    /// New recovery codes, shown only now.
    var recoveryCodes: [String]
    /// Whether there are new recovery codes to show.
    var hasRecoveryCodes: Bool

    /// The section with what `outcome` shows once.
    init(
        passkeys: [Passkey], registration: String, sealedRegistration: String, twoStepEnabled: Bool,
        recoveryCodesLeft: Int, outcome: AccountSecurityOutcome
    ) {
        (self.passkeys, self.registration, self.sealedRegistration) = (passkeys, registration, sealedRegistration)
        (self.twoStepEnabled, self.recoveryCodesLeft) = (twoStepEnabled, recoveryCodesLeft)
        setup = twoStepEnabled ? nil : outcome.setup
        recoveryCodes = outcome.recoveryCodes ?? []
        hasRecoveryCodes = !recoveryCodes.isEmpty
    }

    /// One passkey as the page lists it: its name, the day it was made and last used (UTC), whether it is backed up.
    struct Passkey {
        var id: String
        var name: String
        var created: String
        var lastUsed: String
        var backedUp: String

        init(_ record: PasskeyCredentialRecord) {
            id = Base64URL.encode(record.credentialID)
            name = record.name
            created = Self.day(record.createdAt)
            lastUsed = record.lastUsedAt.map(Self.day) ?? "never"
            backedUp = record.isBackedUp ? "yes" : "no"
        }

        /// `date`'s day, `2026-11-29`.
        private static func day(_ date: Date) -> String { String(date.ISO8601Format().prefix(10)) }
    }
}

extension PageTemplates {
    /// The account page's passkeys and two-step sign-in (``AccountSecuritySection``): a form per passkey to rename or
    /// delete it, a button that adds one (``PasskeyScript``), and two-step sign-in's set-up, switch and recovery codes.
    static let accountSecurity = """
        <h2 id="passkeys-heading">Passkeys</h2>
        {{#passkeys}}<form method="post" action="account" class="passkey" aria-label="Passkey {{name}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <p class="passkey-details"><strong>{{name}}</strong>: created {{created}}, last used {{lastUsed}}, backed up \
        {{backedUp}}</p>
        <label for="rename-{{id}}">Name</label>
        <input id="rename-{{id}}" name="name" value="{{name}}" maxlength="64" required autocomplete="off">
        <button type="submit" name="intent" value="rename_passkey" class="secondary">Rename</button>
        <button type="submit" name="intent" value="delete_passkey" class="danger" formnovalidate>Delete</button>
        </form>
        {{/passkeys}}{{^passkeys}}<p id="no-passkeys">You have no passkeys yet.</p>
        {{/passkeys}}<form method="post" action="account" aria-labelledby="passkeys-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="challenge" value="{{sealedRegistration}}">
        <input type="hidden" id="passkey" name="passkey" data-mode="register" data-options="{{registration}}">
        <label for="passkey-name">Name of the new passkey</label>
        <input id="passkey-name" name="name" maxlength="64" autocomplete="off">
        <p class="error" id="passkey-status" role="alert" hidden>The passkey could not be created. Try again.</p>
        <noscript><p class="hint">Adding a passkey needs scripts, which are turned off in this browser.</p></noscript>
        <button type="submit" name="intent" value="add_passkey" data-passkey="passkey">Add a passkey</button>
        </form>
        <h2 id="two-step-heading">Two-step sign-in</h2>
        {{#hasRecoveryCodes}}<p id="recovery-codes-hint">Save your recovery codes: each signs you in once if you lose \
        your authenticator app. They are shown only now.</p>
        <ul id="recovery-codes" aria-describedby="recovery-codes-hint">
        {{#recoveryCodes}}<li><code>{{.}}</code></li>
        {{/recoveryCodes}}</ul>
        {{/hasRecoveryCodes}}{{#twoStepEnabled}}<p id="two-step-status">Two-step sign-in is on; \
        {{recoveryCodesLeft}} recovery codes left.</p>
        <form method="post" action="account" aria-labelledby="two-step-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="confirm-code">Code from your authenticator app, or a recovery code</label>
        <input id="confirm-code" name="code" required autocomplete="one-time-code" spellcheck="false">
        <button type="submit" name="intent" value="new_recovery_codes" class="secondary">New recovery codes</button>
        <button type="submit" name="intent" value="disable_totp" class="danger">Turn off two-step sign-in</button>
        </form>
        {{/twoStepEnabled}}{{^twoStepEnabled}}{{#setup}}<p>Add this to your authenticator app:</p>
        <p><code id="otpauth-uri">{{uri}}</code></p>
        <p>Setup key: <code id="totp-secret">{{secret}}</code></p>
        <form method="post" action="account" aria-labelledby="two-step-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="enrolment" value="{{enrolment}}">
        <label for="enable-code">Code from your authenticator app</label>
        <input id="enable-code" name="code" required inputmode="numeric" autocomplete="one-time-code" \
        spellcheck="false">
        <button type="submit" name="intent" value="enable_totp">Turn on two-step sign-in</button>
        </form>
        {{/setup}}{{^setup}}<p id="two-step-status">Two-step sign-in is off.</p>
        <form method="post" action="account" aria-labelledby="two-step-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" name="intent" value="set_up_totp">Set up an authenticator app</button>
        </form>
        {{/setup}}{{/twoStepEnabled}}
        """
}
