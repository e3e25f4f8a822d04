#!/usr/bin/env python3
"""An independent DPoP client (RFC 9449) for Limen Server, written with other people's libraries: joserfc makes the
keys, the proofs and the thumbprints (through proofs.py's helpers), requests does HTTP.

Over HTTP, as a public native app would:

1. signs in with --email and --password through the `sign-in` flow and redeems the code at /token with a proof
   (token_type DPoP, the access token's cnf.jkt is joserfc's RFC 7638 thumbprint of the key);
2. reads /userinfo with `Authorization: DPoP` and a proof bound to the token (ath);
3. refreshes with a proof by the same key, and reads /userinfo with the new token;
4. sends hostile requests: a proof replayed (same jti), a proof for another URL (htu), a proof bound to another token
   (ath), a proof by another key, a refresh with another key, the bound token as a Bearer token.

Whenever the server answers use_dpop_nonce it retries once with the DPoP-Nonce it sent (RFC 9449 §8, §9).

Prints one JSON object with what the server answered; exits non-zero when a step answers something unexpected.

Usage: dpop_client.py --issuer URL --client-id ID --redirect-uri URI --email E --password P
"""
import argparse
import base64
import hashlib
import json
import os
import re
import secrets
import sys
import time
import uuid

import requests
from joserfc.jwk import ECKey

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proofs import ath, public_jwk, sign  # noqa: E402


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def challenge_error(response):
    """The error of a response's WWW-Authenticate challenge, with its scheme: "DPoP invalid_dpop_proof"."""
    challenge = response.headers.get("WWW-Authenticate", "")
    error = re.search(r'error="([^"]*)"', challenge)
    return f"{challenge.split(' ')[0]} {error.group(1) if error else ''}".strip()


class DPoPKey:
    """One ES256 key and the proofs it signs; remembers the server's latest nonce."""

    def __init__(self):
        self.key = ECKey.generate_key("P-256")
        self.thumbprint = self.key.thumbprint()
        self.nonce = None

    def proof(self, method, url, access_token=None, **changes):
        claims = {"jti": str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(time.time())}
        if access_token is not None:
            claims["ath"] = ath(access_token)
        if self.nonce is not None:
            claims["nonce"] = self.nonce
        claims.update(changes)
        header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": public_jwk(self.key)}
        return sign(header, claims, self.key)

    def send(self, method, url, make_proof, **kwargs):
        """Sends the request with a fresh proof; once more with the server's nonce when it asks for one."""
        for _ in range(2):
            headers = dict(kwargs.pop("headers", {}))
            headers["DPoP"] = make_proof()
            kwargs["headers"] = headers
            answer = requests.request(method, url, timeout=30, **kwargs)
            if "DPoP-Nonce" in answer.headers:
                self.nonce = answer.headers["DPoP-Nonce"]
            asked = answer.status_code in (400, 401) and "use_dpop_nonce" in (
                answer.headers.get("WWW-Authenticate", "") + answer.text)
            if not asked:
                return answer
        return answer


class App:
    """A public native app of the server: PKCE, the sign-in flow, the token endpoint and /userinfo with DPoP."""

    def __init__(self, args):
        self.args = args
        self.token_url = f"{args.issuer}/token"
        self.userinfo_url = f"{args.issuer}/userinfo"

    def code(self):
        verifier = secrets.token_urlsafe(32)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        started = requests.post(f"{self.args.issuer}/flows/sign-in", data={
            "client_id": self.args.client_id, "redirect_uri": self.args.redirect_uri,
            "scope": "openid email offline_access", "state": secrets.token_urlsafe(8), "code_challenge": challenge,
            "code_challenge_method": "S256",
        }, timeout=30)
        if started.status_code != 200:
            fail(f"start of sign-in: {started.status_code} {started.text}")
        done = requests.post(f"{self.args.issuer}/flows/interactions/{started.json()['interaction']}", json={
            "node": "credentials", "action": "submit",
            "values": {"email": self.args.email, "password": self.args.password},
        }, timeout=30).json()
        if done["node"]["type"] != "success":
            fail(f"sign-in: {done}")
        return done["node"]["code"], verifier

    def redeem(self, key, code, verifier):
        form = {
            "grant_type": "authorization_code", "code": code, "redirect_uri": self.args.redirect_uri,
            "client_id": self.args.client_id, "code_verifier": verifier,
        }
        return key.send("POST", self.token_url, lambda: key.proof("POST", self.token_url), data=form)

    def refresh(self, key, refresh_token):
        form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": self.args.client_id}
        return key.send("POST", self.token_url, lambda: key.proof("POST", self.token_url), data=form)

    def userinfo(self, key, access_token, make_proof=None, scheme="DPoP"):
        make_proof = make_proof or (lambda: key.proof("GET", self.userinfo_url, access_token))
        return key.send(
            "GET", self.userinfo_url, make_proof, headers={"Authorization": f"{scheme} {access_token}"})


def expect_ok(answer, step):
    if answer.status_code != 200:
        fail(f"{step}: {answer.status_code} {answer.headers.get('WWW-Authenticate', '')} {answer.text}")
    return answer


def main():
    parser = argparse.ArgumentParser()
    for name in ("--issuer", "--client-id", "--redirect-uri", "--email", "--password"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    key, other = DPoPKey(), DPoPKey()
    app = App(args)
    summary = {"hostile": {}}

    def issued(answer):
        """The tokens' type, whether the access token is bound to the key, and the subject /userinfo gives for it."""
        access = expect_ok(answer, "token").json()
        return access, {
            "token_type": access["token_type"],
            "bound_to_key": claims_of(access["access_token"]).get("cnf", {}).get("jkt") == key.thumbprint,
            "subject": expect_ok(app.userinfo(key, access["access_token"]), "userinfo").json()["sub"],
        }

    tokens, summary["issued"] = issued(app.redeem(key, *app.code()))
    summary["nonce_sent"] = key.nonce is not None
    refreshed, summary["refreshed"] = issued(app.refresh(key, tokens["refresh_token"]))

    hostile = summary["hostile"]
    access_token = refreshed["access_token"]
    used = key.proof("GET", app.userinfo_url, access_token)
    expect_ok(app.userinfo(key, access_token, lambda: used), "userinfo with a proof about to be replayed")
    hostile["replayed jti"] = challenge_error(app.userinfo(key, access_token, lambda: used))
    hostile["wrong htu"] = challenge_error(
        app.userinfo(key, access_token, lambda: key.proof("GET", f"{args.issuer}/v1/me/identities", access_token)))
    hostile["wrong ath"] = challenge_error(
        app.userinfo(key, access_token, lambda: key.proof("GET", app.userinfo_url, tokens["access_token"])))
    other.nonce = key.nonce
    hostile["other key"] = challenge_error(
        app.userinfo(key, access_token, lambda: other.proof("GET", app.userinfo_url, access_token)))
    hostile["bearer scheme"] = challenge_error(app.userinfo(key, access_token, scheme="Bearer"))
    hostile["refresh other key"] = other.send(
        "POST", app.token_url, lambda: other.proof("POST", app.token_url),
        data={"grant_type": "refresh_token", "refresh_token": refreshed["refresh_token"],
              "client_id": args.client_id}).json().get("error")
    hostile["token wrong htu"] = app.redeem(
        DPoPKeyFor(key, f"{args.issuer}/userinfo"), *app.code()).json().get("error")
    print(json.dumps(summary))


class DPoPKeyFor(DPoPKey):
    """`key`, signing every proof for `url` whatever the request's: a proof for another URL."""

    def __init__(self, key, url):
        self.key, self.thumbprint, self.nonce, self.url = key.key, key.thumbprint, key.nonce, url

    def proof(self, method, url, access_token=None, **changes):
        return super().proof(method, self.url, access_token, **changes)


if __name__ == "__main__":
    main()
