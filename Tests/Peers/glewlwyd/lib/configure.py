#!/usr/bin/env python3
"""Configure a freshly started glewlwyd for Limen's end-to-end tests (called by start.sh).

Logs in as the packaged admin (admin/password), creates the `oidc` plugin with a fresh
three-key JWKS, the user `alice`, the Limen clients, pre-grants consent for alice, then
replaces the admin password with a random one. Prints the peer description JSON on stdout.
Only talks to 127.0.0.1. Needs python3 stdlib + `cryptography`.
"""
import argparse
import base64
import http.cookiejar
import json
import secrets
import sys
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

# Fixed loopback redirect ports a test's callback listener may bind to (first one is the default).
REDIRECT_PORTS = [47111, 47112, 47113, 47114, 47115]
REDIRECT_URIS = [f"http://127.0.0.1:{p}/callback" for p in REDIRECT_PORTS]
POST_LOGOUT_URIS = [f"http://127.0.0.1:{p}/logged-out" for p in REDIRECT_PORTS]
# Limen Server as glewlwyd's relying party (upstream provider `glewlwyd` of the hosted pages), listening on one of the
# same ports: registered with every client, not listed in peer.json (the SDK's tests pick from REDIRECT_URIS).
FEDERATION_REDIRECT_URIS = [f"http://127.0.0.1:{p}/federation/glewlwyd/callback" for p in REDIRECT_PORTS]

PUBLIC_CLIENTS = [("limen-rs256", "rsa1", "RS256"),
                  ("limen-es256", "ec1", "ES256"),
                  ("limen-eddsa", "ed1", "EdDSA")]
CONFIDENTIAL_CLIENT = ("limen-confidential", "rsa1", "RS256")

# Scopes alice holds. `email`/`profile`/`offline_access` are created so that the usual
# OIDC scope strings are accepted; email and name claims are emitted regardless ("mandatory").
EXTRA_SCOPES = ["email", "profile", "offline_access"]
USER_SCOPES = ["openid", "g_profile"] + EXTRA_SCOPES

ACCESS_TOKEN_SECONDS = 3600
REFRESH_TOKEN_SECONDS = 86400
CODE_SECONDS = 600
DEVICE_EXPIRATION_SECONDS = 600
DEVICE_INTERVAL_SECONDS = 1


def log(msg):
    print(f"glewlwyd/configure: {msg}", file=sys.stderr)


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def int_b64u(n: int) -> str:
    return b64u(n.to_bytes((n.bit_length() + 7) // 8 or 1, "big"))


def make_private_jwks():
    """Three fresh signing keys: RSA-2048/RS256, P-256/ES256, Ed25519/EdDSA."""
    k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    n = k.private_numbers()
    pub = n.public_numbers
    rsa_jwk = {"kty": "RSA", "kid": "rsa1", "alg": "RS256", "use": "sig",
               "n": int_b64u(pub.n), "e": int_b64u(pub.e), "d": int_b64u(n.d),
               "p": int_b64u(n.p), "q": int_b64u(n.q), "dp": int_b64u(n.dmp1),
               "dq": int_b64u(n.dmq1), "qi": int_b64u(n.iqmp)}
    e = ec.generate_private_key(ec.SECP256R1())
    en = e.private_numbers()
    ec_jwk = {"kty": "EC", "kid": "ec1", "alg": "ES256", "use": "sig", "crv": "P-256",
              "x": b64u(en.public_numbers.x.to_bytes(32, "big")),
              "y": b64u(en.public_numbers.y.to_bytes(32, "big")),
              "d": b64u(en.private_value.to_bytes(32, "big"))}
    d = ed25519.Ed25519PrivateKey.generate()
    raw = serialization.Encoding.Raw
    ed_jwk = {"kty": "OKP", "kid": "ed1", "alg": "EdDSA", "use": "sig", "crv": "Ed25519",
              "x": b64u(d.public_key().public_bytes(raw, serialization.PublicFormat.Raw)),
              "d": b64u(d.private_bytes(raw, serialization.PrivateFormat.Raw,
                                        serialization.NoEncryption()))}
    return {"keys": [rsa_jwk, ec_jwk, ed_jwk]}


class Api:
    """Tiny JSON client keeping the admin session cookie."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method, path, body=None, expect=(200,)):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(req, timeout=10) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode(errors="replace")
        if status not in expect:
            # Never echo request bodies: they carry passwords and private keys.
            raise SystemExit(f"glewlwyd/configure: {method} {path} -> HTTP {status} {text[:500]}")
        return json.loads(text) if text.strip() else None


def plugin_parameters(issuer, jwks):
    return {
        "iss": issuer,
        "jwks-private": json.dumps(jwks),
        "default-kid": "rsa1",
        "client-sign_kid-parameter": "sign_kid",
        "jwks-show": True,
        "access-token-duration": ACCESS_TOKEN_SECONDS,
        "refresh-token-duration": REFRESH_TOKEN_SECONDS,
        "code-duration": CODE_SECONDS,
        "refresh-token-rolling": True,
        "refresh-token-one-use": "never",
        "allow-non-oidc": True,
        "auth-type-code-enabled": True,
        "auth-type-token-enabled": False,
        "auth-type-id-token-enabled": True,
        "auth-type-none-enabled": False,
        "auth-type-password-enabled": False,
        "auth-type-client-enabled": True,
        "auth-type-refresh-enabled": True,
        "auth-type-device-enabled": True,
        "device-authorization-expiration": DEVICE_EXPIRATION_SECONDS,
        "device-authorization-interval": DEVICE_INTERVAL_SECONDS,
        "pkce-allowed": True,
        "pkce-method-plain-allowed": False,
        "introspection-revocation-allowed": True,
        # Lets a client authenticate /introspect and /revoke with its own id + secret
        # (HTTP Basic); glewlwyd only allows that for clients with client_credentials.
        "introspection-revocation-allow-target-client": True,
        "register-client-allowed": False,
        "session-management-allowed": True,
        "session-cookie-name": "GLEWLWYD_OIDC_SID",
        "session-cookie-expiration": 2592000,
        "subject-type": "public",
        "name-claim": "mandatory",
        "email-claim": "mandatory",
        "scope-claim": "mandatory",
        "address-claim": {"type": "no"},
        "claims": [],
        "scope": [],
        "additional-parameters": [],
        "request-parameter-allow": True,
        "request-uri-allow-https-non-secure": False,
        "oauth-as-iss-id": False,
    }


def client_body(client_id, kid, secret=None):
    types = ["code", "refresh_token", "device_authorization", "delete_token"]
    body = {"client_id": client_id, "name": client_id, "description": "Limen e2e test client",
            "enabled": True, "confidential": secret is not None,
            "redirect_uri": REDIRECT_URIS + FEDERATION_REDIRECT_URIS, "post_logout_redirect_uris": POST_LOGOUT_URIS,
            "authorization_type": types, "sign_kid": kid, "scope": []}
    if secret is not None:
        body["password"] = secret
        body["authorization_type"] = types + ["client_credentials"]
        body["token_endpoint_auth_method"] = ["client_secret_basic", "client_secret_post"]
        body["scope"] = ["openid"]  # scopes the client may get via client_credentials
    return body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--pid", type=int, required=True)
    args = ap.parse_args()

    base_url = f"http://127.0.0.1:{args.port}"
    issuer = f"{base_url}/api/oidc"
    admin = Api(base_url + "/api")
    admin.call("POST", "/auth/", {"username": "admin", "password": "password"})

    for name in EXTRA_SCOPES:
        admin.call("POST", "/scope/", {"name": name, "display_name": name,
                                       "description": f"OIDC {name} scope",
                                       "password_required": False, "scheme": {}})

    admin.call("POST", "/mod/plugin/", {"module": "oidc", "name": "oidc", "display_name": "OIDC",
                                        "enabled": True,
                                        "parameters": plugin_parameters(issuer, make_private_jwks())})
    log(f"oidc plugin created, issuer {issuer}")

    user = {"username": "alice", "password": secrets.token_urlsafe(18),
            "name": "Alice Example", "email": "alice@example.test"}
    admin.call("POST", "/user/", dict(user, scope=USER_SCOPES, enabled=True))

    clients = []
    for client_id, kid, alg in PUBLIC_CLIENTS:
        admin.call("POST", "/client/", client_body(client_id, kid))
        clients.append((client_id, None, alg))
    cid, kid, alg = CONFIDENTIAL_CLIENT
    secret = secrets.token_urlsafe(24)
    admin.call("POST", "/client/", client_body(cid, kid, secret))
    clients.append((cid, secret, alg))
    log(f"user alice and {len(clients)} clients created")

    # Pre-grant consent for alice to every client, so an authorize request in alice's
    # cookie session (+ g_continue) redirects straight back with a code.
    alice = Api(base_url + "/api")
    alice.call("POST", "/auth/", {"username": user["username"], "password": user["password"]})
    for client_id, _, _ in clients:
        alice.call("PUT", f"/auth/grant/{client_id}", {"scope": " ".join(USER_SCOPES[:1] + EXTRA_SCOPES)})
    log("consent granted for alice")

    # Replace the well-known packaged admin password (the DB is per run, nobody needs it).
    admin_user = admin.call("GET", "/user/admin")
    admin_user["password"] = secrets.token_urlsafe(18)
    admin_user.pop("source", None)
    admin.call("PUT", "/user/admin", admin_user)

    peer = {"issuer": issuer, "baseURL": base_url, "pid": args.pid, "user": user,
            "clients": [{"clientID": c, "clientSecret": s, "alg": a,
                         "redirectURIs": REDIRECT_URIS,
                         "postLogoutRedirectURIs": POST_LOGOUT_URIS} for c, s, a in clients]}
    print(json.dumps(peer, indent=2))


if __name__ == "__main__":
    main()
