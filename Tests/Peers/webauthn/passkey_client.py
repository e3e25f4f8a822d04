#!/usr/bin/env python3
"""An independent passkey client for Limen Server's native flows, written with other people's libraries.

py_webauthn (`webauthn` on PyPI) reads the options the server sends (`parse_registration_options_json`,
`parse_authentication_options_json`: WebAuthn's JSON forms, strictly) and checks each credential this script makes
before it is sent (`parse_registration_credential_json`, `parse_authentication_credential_json`). The credentials are
made with Python's cryptography and cbor2 (`vectors.make_key`): one passkey per algorithm ES256, EdDSA and RS256, with
`none` and `packed` self attestation. Over HTTP, as an app would:

1. signs in with --email and --password through the `sign-in` flow and redeems the code (the bearer token);
2. registers each passkey through `passkey-register` with that token;
3. signs in with each through `passkey` (usernameless), redeems the code and reads the ID token's `sub`;
4. sends hostile answers: an assertion replayed on a new interaction, one without user verification, one from an
   origin the server does not allow.

Prints one JSON object with what the server answered; exits non-zero when a step answers something unexpected.

Usage: passkey_client.py --issuer URL --client-id ID --redirect-uri URI --email E --password P
"""
import argparse
import base64
import hashlib
import json
import os
import secrets
import sys
from urllib.parse import urlparse

import cbor2
import requests
from webauthn.helpers import (
    parse_authentication_credential_json,
    parse_authentication_options_json,
    parse_registration_credential_json,
    parse_registration_options_json,
)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vectors import b64url, make_key  # noqa: E402


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class App:
    """A native app of the server: PKCE, flow starts and continuations, the code's redemption."""

    def __init__(self, args):
        self.args = args
        self.verifier = secrets.token_urlsafe(32)
        challenge = hashlib.sha256(self.verifier.encode()).digest()
        self.challenge = base64.urlsafe_b64encode(challenge).rstrip(b"=").decode()
        self.origin = "{0.scheme}://{0.netloc}".format(urlparse(args.issuer))

    def start(self, flow, bearer=None):
        fields = {
            "client_id": self.args.client_id, "redirect_uri": self.args.redirect_uri, "scope": "openid email",
            "state": secrets.token_urlsafe(8), "code_challenge": self.challenge, "code_challenge_method": "S256",
        }
        headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
        answer = requests.post(f"{self.args.issuer}/flows/{flow}", data=fields, headers=headers, timeout=30)
        if answer.status_code != 200:
            fail(f"start of {flow}: {answer.status_code} {answer.text}")
        return answer.json()

    def submit(self, interaction, node, values, action="submit"):
        body = {"node": node, "action": action, "values": values}
        return requests.post(
            f"{self.args.issuer}/flows/interactions/{interaction}", json=body, timeout=30).json()

    def bearer(self):
        """An access token of the user, from a password sign-in through `sign-in`."""
        started = self.start("sign-in")
        signed_in = self.submit(
            started["interaction"], "credentials", {"email": self.args.email, "password": self.args.password})
        if signed_in["node"]["type"] != "success":
            fail(f"sign-in: {signed_in}")
        return self.redeem(signed_in["node"]["code"])["access_token"]

    def redeem(self, code):
        answer = requests.post(f"{self.args.issuer}/token", data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": self.args.redirect_uri,
            "client_id": self.args.client_id, "code_verifier": self.verifier,
        }, timeout=30)
        if answer.status_code != 200:
            fail(f"token: {answer.status_code} {answer.text}")
        return answer.json()


def passkey_options(answer):
    """The options of the answer's PASSKEY collector."""
    for collector in answer["node"].get("collectors", []):
        if collector["type"] == "PASSKEY":
            return collector["mode"], collector["options"]
    fail(f"no PASSKEY collector in {answer}")


class Authenticator:
    """One passkey, made for `algorithm` with attestation `fmt`."""

    def __init__(self, algorithm, fmt):
        self.algorithm, self.fmt = algorithm, fmt
        self.cose, self.sign = make_key(algorithm)
        self.credential_id = secrets.token_bytes(16)
        self.sign_count = 0
        self.user_handle = None
        self.rp_id = None

    def authenticator_data(self, flags, attested=b""):
        return (hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + self.sign_count.to_bytes(4, "big")
                + attested)

    @staticmethod
    def client_data(ceremony, challenge, origin):
        return json.dumps({"type": ceremony, "challenge": challenge, "origin": origin, "crossOrigin": False},
                          separators=(",", ":")).encode()

    def register(self, options, origin):
        parsed = parse_registration_options_json(options)
        if self.algorithm not in [param.alg for param in parsed.pub_key_cred_params]:
            fail(f"algorithm {self.algorithm} not offered: {options}")
        self.rp_id, self.user_handle = parsed.rp.id, parsed.user.id
        attested = (bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id
                    + cbor2.dumps(self.cose))
        data = self.authenticator_data(0x01 | 0x04 | 0x40, attested)
        client_data = self.client_data("webauthn.create", options["challenge"], origin)
        statement = {}
        if self.fmt == "packed":
            statement = {"alg": self.algorithm, "sig": self.sign(data + hashlib.sha256(client_data).digest())}
        attestation = cbor2.dumps({"fmt": self.fmt, "attStmt": statement, "authData": data})
        credential = {
            "id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                         "transports": ["internal"]},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }
        parse_registration_credential_json(credential)
        return credential

    def assert_(self, options, origin, flags=0x01 | 0x04):
        parsed = parse_authentication_options_json(options)
        if parsed.allow_credentials:
            fail(f"a usernameless sign-in lists credentials: {options}")
        self.sign_count += 1
        data = self.authenticator_data(flags)
        client_data = self.client_data("webauthn.get", options["challenge"], origin)
        credential = {
            "id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data), "authenticatorData": b64url(data),
                "signature": b64url(self.sign(data + hashlib.sha256(client_data).digest())),
                "userHandle": b64url(self.user_handle),
            },
            "clientExtensionResults": {},
        }
        parse_authentication_credential_json(credential)
        return credential


def subject(id_token):
    return json.loads(unb64url(id_token.split(".")[1]))["sub"]


def detail_codes(answer):
    return sorted(detail["code"] for detail in answer["node"].get("details", []))


def main():
    parser = argparse.ArgumentParser()
    for name in ("--issuer", "--client-id", "--redirect-uri", "--email", "--password"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    app = App(args)

    bearer = app.bearer()

    summary = {"registered": [], "subjects": [], "hostile": {}}
    keys = [Authenticator(-7, "none"), Authenticator(-8, "packed"), Authenticator(-257, "packed")]
    for key in keys:
        started = app.start("passkey-register", bearer=bearer)
        mode, options = passkey_options(started)
        if mode != "register":
            fail(f"passkey-register's mode is {mode}")
        done = app.submit(started["interaction"], "register",
                          {"passkey": key.register(options, app.origin), "name": f"key {key.algorithm}"})
        summary["registered"].append(done["node"] == {"type": "success", "registered": True})

    last = None
    for key in keys:
        started = app.start("passkey")
        mode, options = passkey_options(started)
        if mode != "authenticate":
            fail(f"passkey's mode is {mode}")
        last = key.assert_(options, app.origin)
        done = app.submit(started["interaction"], "passkey", {"passkey": last})
        if done["node"]["type"] != "success":
            fail(f"passkey sign-in with {key.algorithm}: {done}")
        summary["subjects"].append(subject(app.redeem(done["node"]["code"])["id_token"]))

    started = app.start("passkey")
    summary["hostile"]["replayed"] = detail_codes(app.submit(started["interaction"], "passkey", {"passkey": last}))
    started = app.start("passkey")
    _, options = passkey_options(started)
    no_uv = keys[0].assert_(options, app.origin, flags=0x01)
    summary["hostile"]["without_user_verification"] = detail_codes(
        app.submit(started["interaction"], "passkey", {"passkey": no_uv}))
    started = app.start("passkey")
    _, options = passkey_options(started)
    elsewhere = keys[0].assert_(options, "https://evil.example")
    summary["hostile"]["other_origin"] = detail_codes(
        app.submit(started["interaction"], "passkey", {"passkey": elsewhere}))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
