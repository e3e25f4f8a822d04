#!/usr/bin/env python3
"""Token helper and sign-in timer for the Limen Server benchmarks (Server/Benchmarks/run.sh). Not a test.

limen:    signs in once through Limen's hosted pages (requests as the browser, as Tests/Peers/authlib/code_flow.py),
          then with that browser session runs authorize -> code -> token (PKCE S256, client_secret_basic) again and
          again. Prints one JSON object: `refresh_tokens` (--count of them, each from its own grant), `access_token`,
          and with --timing N the per-iteration times of N further sign-ins (milliseconds; the password hash is
          paid only by the first sign-in, which is not timed).
glewlwyd: logs in to the glewlwyd peer (DIR/peer.json from Tests/Peers/glewlwyd/start.sh) through its API and runs
          the code flow for its confidential client. Prints `refresh_tokens` (one: glewlwyd does not rotate them),
          `access_token` and `basic` (the Authorization header value for that client).

Usage: flows.py limen --issuer URL --client-id ID --client-secret S --redirect-uri URI --email E --password P
                      [--count N] [--timing N]
       flows.py glewlwyd --peer-json FILE
"""
import argparse
import base64
import hashlib
import json
import secrets
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urljoin, urlparse

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests/Peers/authlib"))
from hosted_pages import TIMEOUT, fail, sign_in  # noqa: E402



def basic_header(client_id, secret):
    """RFC 6749 §2.3.1: form-encode both parts, then HTTP Basic."""
    pair = f"{quote(client_id, safe='')}:{quote(secret, safe='')}"
    return "Basic " + base64.b64encode(pair.encode()).decode()


def pkce_pair():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


def authorization_url(endpoint, client_id, redirect_uri, challenge, extra=""):
    query = urlencode({
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
        "scope": "openid email profile", "state": secrets.token_urlsafe(16), "nonce": secrets.token_urlsafe(16),
        "code_challenge": challenge, "code_challenge_method": "S256",
    })
    return f"{endpoint}?{query}{extra}"


def code_from(callback):
    codes = parse_qs(urlparse(callback).query).get("code")
    if not codes:
        fail(f"no code in {callback}")
    return codes[0]


def redeem(browser, token_endpoint, basic, code, redirect_uri, verifier):
    response = browser.post(token_endpoint, headers={"Authorization": basic}, timeout=TIMEOUT, data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier})
    if response.status_code != 200:
        fail(f"token endpoint answered {response.status_code}: {response.text[:200]}")
    return response.json()


def limen(args):
    metadata = requests.get(args.issuer + "/.well-known/openid-configuration", timeout=TIMEOUT).json()
    authorize, token_endpoint = metadata["authorization_endpoint"], metadata["token_endpoint"]
    basic = basic_header(args.client_id, args.client_secret)
    browser = requests.Session()

    verifier, challenge = pkce_pair()
    url = authorization_url(authorize, args.client_id, args.redirect_uri, challenge)
    callback = sign_in(browser, url, args.redirect_uri, args.email, args.password)
    tokens = redeem(browser, token_endpoint, basic, code_from(callback), args.redirect_uri, verifier)

    def signed_in_flow():
        """authorize (the browser has a session) -> code -> token; returns the token response."""
        verifier, challenge = pkce_pair()
        url = authorization_url(authorize, args.client_id, args.redirect_uri, challenge)
        response = browser.get(url, allow_redirects=False, timeout=TIMEOUT)
        location = response.headers.get("Location", "")
        if response.status_code not in (302, 303) or not location.startswith(args.redirect_uri):
            fail(f"authorize with a session answered {response.status_code} {location[:200]}")
        return redeem(browser, token_endpoint, basic, code_from(location), args.redirect_uri, verifier)

    refresh_tokens = [tokens["refresh_token"]]
    while len(refresh_tokens) < args.count:
        refresh_tokens.append(signed_in_flow()["refresh_token"])
    timings = []
    for _ in range(args.timing):
        start = time.perf_counter()
        signed_in_flow()
        timings.append((time.perf_counter() - start) * 1000)
    result = {"refresh_tokens": refresh_tokens[:args.count], "access_token": tokens["access_token"]}
    if timings:
        timings.sort()
        result["timing_ms"] = {
            "n": len(timings), "median": statistics.median(timings),
            "p90": timings[int(0.9 * (len(timings) - 1))], "max": timings[-1]}
    print(json.dumps(result))


def glewlwyd(args):
    with open(args.peer_json) as file:
        peer = json.load(file)
    client = next(c for c in peer["clients"] if c["clientSecret"])
    redirect_uri = client["redirectURIs"][0]
    user = peer["user"]
    browser = requests.Session()
    login = browser.post(peer["baseURL"] + "/api/auth/", timeout=TIMEOUT,
                         json={"username": user["username"], "password": user["password"]})
    if login.status_code != 200:
        fail(f"glewlwyd login answered {login.status_code}")
    verifier, challenge = pkce_pair()
    url = authorization_url(peer["issuer"] + "/auth", client["clientID"], redirect_uri, challenge, "&g_continue")
    response = browser.get(url, allow_redirects=False, timeout=TIMEOUT)
    location = response.headers.get("Location", "")
    if not location.startswith(redirect_uri):
        fail(f"glewlwyd authorize answered {response.status_code} {location[:200]}")
    basic = basic_header(client["clientID"], client["clientSecret"])
    tokens = redeem(browser, peer["issuer"] + "/token", basic, code_from(location), redirect_uri, verifier)
    print(json.dumps({
        "refresh_tokens": [tokens["refresh_token"]], "access_token": tokens["access_token"], "basic": basic}))


def main():
    parser = argparse.ArgumentParser()
    modes = parser.add_subparsers(dest="mode", required=True)
    limen_mode = modes.add_parser("limen")
    for name in ("issuer", "client-id", "client-secret", "redirect-uri", "email", "password"):
        limen_mode.add_argument(f"--{name}", required=True)
    limen_mode.add_argument("--count", type=int, default=1)
    limen_mode.add_argument("--timing", type=int, default=0)
    glewlwyd_mode = modes.add_parser("glewlwyd")
    glewlwyd_mode.add_argument("--peer-json", required=True)
    args = parser.parse_args()
    limen(args) if args.mode == "limen" else glewlwyd(args)


if __name__ == "__main__":
    main()
