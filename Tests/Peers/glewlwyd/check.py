#!/usr/bin/env python3
"""Self-check of a glewlwyd peer started by start.sh (run by hand).

Usage: check.py DIR            (reads DIR/peer.json)
       check.py --peer FILE

For each public client it replays, headlessly, exactly what Limen's Swift end-to-end tests
must do: discovery, JWKS, authorization code + PKCE (S256) login, code exchange, ID token
header/signature check, refresh, userinfo, revocation/introspection by the confidential
client, device authorization grant, RP-initiated logout. It also checks the confidential
client (client_secret_basic / _post, client_credentials) and records known quirks.
Every HTTP step is printed to stdout ("->" request, "<-" response). Exit status 0 = all passed.
Uses python3 + requests + cryptography; talks to 127.0.0.1 only.
"""
import base64
import hashlib
import json
import os
import secrets
import sys
import time
import urllib.parse as up

import requests
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
SCOPE = "openid email profile"
FAILURES = []


# ---------------------------------------------------------------- helpers
def step(msg):
    print(f"\n== {msg}")


def show(method, url, status, location=None, body=None):
    print(f"  -> {method} {url}")
    print(f"  <- {status}" + (f" Location: {location}" if location else "")
          + (f" body: {body[:160]}" if body else ""))


def check(cond, what):
    print(f"  [{'ok' if cond else 'FAIL'}] {what}")
    if not cond:
        FAILURES.append(what)
    return cond


def b64u_decode(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt_parts(token):
    h, p, sig = token.split(".")
    return json.loads(b64u_decode(h)), json.loads(b64u_decode(p)), f"{h}.{p}".encode(), b64u_decode(sig)


def verify_jws(token, jwks):
    """Verify an RS256 / ES256 / EdDSA compact JWS against the JWKS (by kid)."""
    header, _, signing_input, sig = jwt_parts(token)
    jwk = next((k for k in jwks["keys"] if k["kid"] == header.get("kid")), None)
    if jwk is None:
        return False
    as_int = lambda v: int.from_bytes(b64u_decode(v), "big")
    try:
        if header["alg"] == "RS256":
            rsa.RSAPublicNumbers(as_int(jwk["e"]), as_int(jwk["n"])).public_key().verify(
                sig, signing_input, padding.PKCS1v15(), hashes.SHA256())
        elif header["alg"] == "ES256":
            key = ec.EllipticCurvePublicNumbers(as_int(jwk["x"]), as_int(jwk["y"]),
                                                ec.SECP256R1()).public_key()
            der = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
            key.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
        elif header["alg"] == "EdDSA":
            ed25519.Ed25519PublicKey.from_public_bytes(b64u_decode(jwk["x"])).verify(sig, signing_input)
        else:
            return False
    except InvalidSignature:
        return False
    return True


def pkce_pair():
    verifier = b64u(secrets.token_bytes(32))
    return verifier, b64u(hashlib.sha256(verifier.encode()).digest())


def query_of(location):
    return {k: v[0] for k, v in up.parse_qs(up.urlparse(location).query, keep_blank_values=True).items()}


class Peer:
    def __init__(self, info):
        self.info = info
        self.base = info["baseURL"]
        self.issuer = info["issuer"]
        self.user = info["user"]
        self.clients = {c["clientID"]: c for c in info["clients"]}
        self.conf = None
        self.jwks = None

    # One cookie jar per "browser": POST /api/auth/ with the user's credentials.
    def login(self):
        s = requests.Session()
        url = f"{self.base}/api/auth/"
        r = s.post(url, json={"username": self.user["username"], "password": self.user["password"]})
        show("POST", url + ' json {"username","password"}', r.status_code)
        check(r.status_code == 200 and "GLEWLWYD2_SESSION_ID" in s.cookies, "user login sets GLEWLWYD2_SESSION_ID cookie")
        return s

    def token(self, data, auth=None):
        url = self.conf["token_endpoint"]
        r = requests.post(url, data=data, auth=auth)
        shown = {k: (v if k in ("grant_type", "client_id", "redirect_uri", "scope") else "…") for k, v in data.items()}
        show("POST", f"{url} form {shown}" + (" +Basic" if auth else ""), r.status_code, body=r.text if r.status_code != 200 else None)
        return r

    def authorize_url(self, client_id, redirect_uri, challenge, state, nonce, g_continue=True):
        q = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
             "scope": SCOPE, "state": state, "code_challenge": challenge,
             "code_challenge_method": "S256"}
        if nonce is not None:
            q["nonce"] = nonce
        url = f"{self.conf['authorization_endpoint']}?{up.urlencode(q)}"
        return url + ("&g_continue" if g_continue else "")

    def check_id_token(self, id_token, client, nonce=None):
        header, claims, _, _ = jwt_parts(id_token)
        kid = {"RS256": "rsa1", "ES256": "ec1", "EdDSA": "ed1"}[client["alg"]]
        check(header.get("alg") == client["alg"] and header.get("kid") == kid,
              f"id_token header alg/kid = {header.get('alg')}/{header.get('kid')} (want {client['alg']}/{kid})")
        check(verify_jws(id_token, self.jwks), "id_token signature verifies with JWKS key")
        check(claims.get("iss") == self.issuer and claims.get("aud") == client["clientID"], "id_token iss/aud")
        if nonce is not None:
            check(claims.get("nonce") == nonce, "id_token nonce echoed")
        check(claims.get("email") == self.user["email"] and claims.get("name") == self.user["name"],
              "id_token carries email and name")
        print(f"  id_token claims: {sorted(claims)} auth_time={claims.get('auth_time')} amr={claims.get('amr')}")
        return claims


# ---------------------------------------------------------------- checks
def check_discovery(p):
    step("discovery + JWKS")
    url = f"{p.issuer}/.well-known/openid-configuration"
    r = requests.get(url)
    show("GET", url, r.status_code)
    p.conf = r.json()
    check(p.conf["issuer"] == p.issuer, f"issuer = {p.issuer}")
    for k in ("authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri",
              "end_session_endpoint", "revocation_endpoint", "introspection_endpoint",
              "device_authorization_endpoint"):
        print(f"  {k}: {p.conf.get(k)}")
        check(bool(p.conf.get(k)), f"discovery has {k}")
    print(f"  grant_types_supported: {p.conf.get('grant_types_supported')}")
    print(f"  code_challenge_methods_supported: {p.conf.get('code_challenge_methods_supported')}")
    r = requests.get(p.conf["jwks_uri"])
    show("GET", p.conf["jwks_uri"], r.status_code)
    p.jwks = r.json()
    kids = {(k["kid"], k.get("alg"), k["kty"]) for k in p.jwks["keys"]}
    check(kids == {("rsa1", "RS256", "RSA"), ("ec1", "ES256", "EC"), ("ed1", "EdDSA", "OKP")},
          f"JWKS kids {sorted(kids)}")
    check(all("d" not in k for k in p.jwks["keys"]), "JWKS has no private parts")


def code_login(p, s, client, redirect_uri):
    """Headless authorization code + PKCE login in session s. Returns (token json, nonce)."""
    cid = client["clientID"]
    # Consent: idempotent; start.sh already pre-granted "openid email profile offline_access".
    url = f"{p.base}/api/auth/grant/{cid}"
    r = s.put(url, json={"scope": "openid email profile offline_access"})
    show("PUT", url + ' json {"scope":"openid email profile offline_access"}', r.status_code)
    check(r.status_code == 200, "consent grant accepted")

    verifier, challenge = pkce_pair()
    state, nonce = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
    url = p.authorize_url(cid, redirect_uri, challenge, state, nonce)
    r = s.get(url, allow_redirects=False)
    loc = r.headers.get("Location", "")
    show("GET", url, r.status_code, loc)
    q = query_of(loc)
    check(r.status_code == 302 and loc.startswith(redirect_uri + "?") and "code" in q and q.get("state") == state,
          "authorize -> 302 redirect_uri?code&state")
    r = p.token({"grant_type": "authorization_code", "code": q.get("code", ""), "redirect_uri": redirect_uri,
                 "client_id": cid, "code_verifier": verifier},
                auth=(cid, client["clientSecret"]) if client["clientSecret"] else None)
    check(r.status_code == 200, "code exchange -> 200")
    return r.json(), nonce, q


def check_public_client(p, client):
    cid = client["clientID"]
    redirect_uri = client["redirectURIs"][0]
    step(f"{cid}: authorization code + PKCE")
    s = p.login()
    tok, nonce, q = code_login(p, s, client, redirect_uri)
    print(f"  token response keys: {sorted(tok)} token_type={tok.get('token_type')} scope={tok.get('scope')!r}")
    claims = p.check_id_token(tok["id_token"], client, nonce)
    at_header = jwt_parts(tok["access_token"])[0]
    print(f"  access_token header: {at_header}")

    step(f"{cid}: negative authorize variants (recorded, not fatal unless noted)")
    _, challenge = pkce_pair()
    url = p.authorize_url(cid, redirect_uri, challenge, "s", None)
    r = s.get(url, allow_redirects=False)
    show("GET", url + "  (no nonce)", r.status_code, r.headers.get("Location"))
    check("nonce" in r.headers.get("Location", "") and "error=" in r.headers.get("Location", ""),
          "authorize WITHOUT nonce is refused (error=invalid_request nonce required)")
    url = p.authorize_url(cid, redirect_uri, challenge, "s", "n", g_continue=False)
    r = s.get(url, allow_redirects=False)
    show("GET", url + "  (no g_continue)", r.status_code, r.headers.get("Location"))
    check("/login.html?" in r.headers.get("Location", ""), "authorize WITHOUT g_continue -> 302 login.html (no code)")
    url = p.authorize_url(cid, redirect_uri, "plain-challenge-" + "x" * 40, "s", "n").replace(
        "code_challenge_method=S256", "code_challenge_method=plain")
    r = s.get(url, allow_redirects=False)
    show("GET", url + "  (plain PKCE)", r.status_code, r.headers.get("Location"))
    check("error=" in r.headers.get("Location", ""), "PKCE method plain refused")
    bad = p.authorize_url(cid, "http://127.0.0.1:47999/callback", challenge, "s", "n")
    r = s.get(bad, allow_redirects=False)
    show("GET", bad + "  (unregistered redirect_uri)", r.status_code, r.headers.get("Location"))
    check(r.status_code != 302 or not r.headers.get("Location", "").startswith("http://127.0.0.1:47999"),
          "unregistered redirect_uri is not redirected to")

    step(f"{cid}: wrong code_verifier")
    v2, ch2 = pkce_pair()
    url = p.authorize_url(cid, redirect_uri, ch2, "s2", "n2")
    code = query_of(s.get(url, allow_redirects=False).headers.get("Location", "")).get("code", "")
    r = p.token({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
                 "client_id": cid, "code_verifier": "wrong" + v2})
    check(r.status_code in (400, 403), f"wrong verifier refused ({r.status_code} body={r.text[:80]!r})")

    step(f"{cid}: refresh")
    r = p.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"], "client_id": cid})
    check(r.status_code == 200 and "access_token" in r.json(), "refresh -> new access_token")
    print(f"  refresh response keys: {sorted(r.json())}")
    new_at = r.json()["access_token"]

    step(f"{cid}: userinfo")
    url = p.conf["userinfo_endpoint"]
    r = requests.get(url, headers={"Authorization": f"Bearer {new_at}"})
    show("GET", url + " Authorization: Bearer <access_token>", r.status_code, body=r.text)
    ui = r.json() if r.status_code == 200 else {}
    check(ui.get("sub") == claims["sub"] and ui.get("email") == p.user["email"], "userinfo sub + email")

    conf = next(c for c in p.clients.values() if c["clientSecret"])
    basic = (conf["clientID"], conf["clientSecret"])
    step(f"{cid}: revocation/introspection of a PUBLIC client's tokens (quirks, recorded)")
    url = p.conf["revocation_endpoint"]
    r = requests.post(url, data={"token": tok["refresh_token"], "token_type_hint": "refresh_token",
                                 "client_id": cid})
    show("POST", url + " form token,token_type_hint=refresh_token,client_id (public, no auth)", r.status_code, body=r.text)
    check(r.status_code == 401, "public client cannot revoke its own token (401, empty body)")
    url = p.conf["introspection_endpoint"]
    r = requests.post(url, data={"token": new_at, "token_type_hint": "access_token"}, auth=basic)
    show("POST", url + f" form token(of {cid}),token_type_hint=access_token +Basic {conf['clientID']}", r.status_code, body=r.text)
    check(r.status_code == 200 and r.json().get("active") is False,
          "another client's token introspects as active=false (clients only see their own tokens)")
    url = p.conf["revocation_endpoint"]
    r = requests.post(url, data={"token": tok["refresh_token"], "token_type_hint": "refresh_token"}, auth=basic)
    show("POST", url + f" form token(of {cid}) +Basic {conf['clientID']}", r.status_code, body=r.text)
    r2 = p.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"], "client_id": cid})
    check(r.status_code == 200 and r2.status_code == 200,
          "revoking another client's token answers 200 but has no effect (refresh still works)")

    check_device(p, s, client)
    check_end_session(p, s, client, tok, claims)


def check_device(p, s, client):
    cid = client["clientID"]
    step(f"{cid}: device authorization grant")
    url = p.conf["device_authorization_endpoint"]
    r = requests.post(url, data={"client_id": cid, "scope": SCOPE})
    show("POST", url + f" form client_id,scope={SCOPE!r}", r.status_code, body=r.text)
    d = r.json()
    check(r.status_code == 200 and {"device_code", "user_code", "verification_uri"} <= set(d), "device_authorization response")
    poll = {"grant_type": DEVICE_GRANT, "device_code": d["device_code"], "client_id": cid}
    r = p.token(poll)
    check(r.status_code == 400 and r.json().get("error") == "authorization_pending", "poll before approval -> authorization_pending")
    url = f"{p.base}/api/oidc/device?code={up.quote(d['user_code'])}&g_continue"
    r = s.get(url, allow_redirects=False)
    show("GET", url + "  (user's cookie session)", r.status_code, r.headers.get("Location"))
    check(r.status_code == 302 and "prompt=deviceComplete" in r.headers.get("Location", ""),
          "approval -> 302 login.html?...prompt=deviceComplete")
    deadline = time.monotonic() + 10
    while True:
        time.sleep(d.get("interval", 1))
        r = p.token(poll)
        if r.status_code == 200 or time.monotonic() > deadline:
            break
    check(r.status_code == 200 and "access_token" in r.json(), "device poll after approval -> tokens")
    if r.status_code == 200:
        print(f"  device token keys: {sorted(r.json())}")
        p.check_id_token(r.json()["id_token"], client)


def check_end_session(p, s, client, tok, claims):
    cid = client["clientID"]
    step(f"{cid}: RP-initiated logout")
    post = client["postLogoutRedirectURIs"][0]
    url = p.conf["end_session_endpoint"] + "?" + up.urlencode(
        {"id_token_hint": tok["id_token"], "post_logout_redirect_uri": post, "state": "bye"})
    r = s.get(url, allow_redirects=False)
    loc = r.headers.get("Location", "")
    show("GET", url.split("?")[0] + "?id_token_hint=…&post_logout_redirect_uri=…&state=bye", r.status_code, loc)
    q = query_of(loc)
    check(r.status_code == 302 and q.get("prompt") == "end_session" and q.get("sid") == claims.get("sid"),
          "end_session -> 302 login.html?prompt=end_session&sid=<id_token sid>")
    check(q.get("callback_url") == f"{post}?state=bye", "callback_url = post_logout_redirect_uri?state=bye")
    # What login.html does when the user confirms, replayed headlessly:
    url = f"{p.base}/api/oidc/session/{q['sid']}"
    r = s.delete(url)
    show("DELETE", url, r.status_code)
    check(r.status_code == 200, "DELETE /api/oidc/session/{sid} -> 200")
    url = f"{p.base}/api/auth/"
    r = s.delete(url)
    show("DELETE", url + "  (ends the glewlwyd login session)", r.status_code)
    check(r.status_code == 200, "DELETE /api/auth/ -> 200")
    _, challenge = pkce_pair()
    url = p.authorize_url(cid, client["redirectURIs"][0], challenge, "s3", "n3")
    r = s.get(url, allow_redirects=False)
    show("GET", url + "  (after logout)", r.status_code, r.headers.get("Location"))
    check("/login.html?" in r.headers.get("Location", ""), "after logout, authorize needs a login again")


def check_confidential(p):
    conf = next(c for c in p.clients.values() if c["clientSecret"])
    cid, secret = conf["clientID"], conf["clientSecret"]
    step(f"{cid}: code flow with client_secret_basic, then client_secret_post")
    s = p.login()
    tok, nonce, _ = code_login(p, s, conf, conf["redirectURIs"][1])
    p.check_id_token(tok["id_token"], conf, nonce)
    r = p.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"],
                 "client_id": cid, "client_secret": secret})
    check(r.status_code == 200, "refresh with client_secret_post -> 200")
    r = p.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"]}, auth=(cid, "wrong"))
    check(r.status_code in (400, 401, 403), f"wrong secret refused ({r.status_code} {r.text[:80]!r})")

    step(f"{cid}: introspection + revocation of its own tokens (client_secret_basic)")
    url = p.conf["introspection_endpoint"]
    r = requests.post(url, data={"token": tok["access_token"], "token_type_hint": "access_token"}, auth=(cid, secret))
    show("POST", url + " form token,token_type_hint=access_token +Basic", r.status_code, body=r.text)
    check(r.status_code == 200 and r.json().get("active") is True, "introspection active=true")
    print(f"  introspection keys: {sorted(r.json())}")
    r = requests.post(url, data={"token": tok["access_token"], "client_id": cid, "client_secret": secret})
    show("POST", url + " form token,client_id,client_secret (client_secret_post)", r.status_code, body=r.text)
    print(f"  (introspection with client_secret_post: {r.status_code})")
    url = p.conf["revocation_endpoint"]
    r = requests.post(url, data={"token": tok["refresh_token"], "token_type_hint": "refresh_token"}, auth=(cid, secret))
    show("POST", url + " form token,token_type_hint=refresh_token +Basic", r.status_code, body=r.text)
    check(r.status_code == 200, "revocation with client_secret_basic -> 200")
    r = p.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"]}, auth=(cid, secret))
    check(r.status_code in (400, 401, 403), f"revoked refresh token refused ({r.status_code} {r.text[:80]!r})")
    url = p.conf["introspection_endpoint"]
    r = requests.post(url, data={"token": tok["refresh_token"], "token_type_hint": "refresh_token"}, auth=(cid, secret))
    show("POST", url + " form token=<revoked refresh>,token_type_hint=refresh_token +Basic", r.status_code, body=r.text)
    r = requests.post(p.conf["revocation_endpoint"], data={"token": tok["access_token"], "token_type_hint": "access_token"}, auth=(cid, secret))
    check(r.status_code == 200, "access token revocation -> 200")
    r = requests.get(p.conf["userinfo_endpoint"], headers={"Authorization": f"Bearer {tok['access_token']}"})
    show("GET", p.conf["userinfo_endpoint"] + " Bearer <revoked access_token>", r.status_code, body=r.text)
    check(r.status_code == 401, "revoked access token refused by userinfo")

    step(f"{cid}: client_credentials")
    r = p.token({"grant_type": "client_credentials", "scope": "openid"}, auth=(cid, secret))
    check(r.status_code == 200 and "access_token" in r.json(), "client_credentials -> access_token")


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--peer":
        path = args[1]
    elif len(args) == 1:
        path = os.path.join(args[0], "peer.json")
    else:
        sys.exit("usage: check.py DIR | check.py --peer FILE")
    p = Peer(json.load(open(path)))
    check_discovery(p)
    for c in p.info["clients"]:
        if c["clientSecret"] is None:
            check_public_client(p, c)
    check_confidential(p)
    print()
    if FAILURES:
        print(f"FAILED ({len(FAILURES)}):\n  " + "\n  ".join(FAILURES))
        sys.exit(1)
    print("ALL CHECKS PASSED")


if __name__ == "__main__":
    main()
