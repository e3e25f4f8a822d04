#!/usr/bin/env python3
"""Native sign-in flow tools for the Limen Server benchmarks (Server/Benchmarks/run.sh, issue 10 §5). Not a test.

cheap-hash: prints an scrypt hash of --password in Limen's encoding with N = 2 (the cheapest), for run.sh to store
            as the benchmark user's hash, so that the flows measure everything but the password hash.
time:       runs --timing native email + password sign-ins one after another, each: POST /flows/sign-in (the PKCE
            challenge, state and nonce) -> POST /flows/interactions/ID with the email and password -> the success
            node's code -> POST /token with the verifier -> the ID token validated with joserfc (signature against
            the issuer's JWKS, fetched once, then iss, aud, exp and nonce). With --flow anonymous, anonymous sign-ins
            instead: start -> code -> token (POST /flows/anonymous with action=submit, which presses the guest
            node's button at the start and answers the success node; the ID token's auth_level must be guest).
            Prints {"timing_ms": {"n", "median", "p90", "p99", "max"}}.

Usage: native_flow.py cheap-hash --password P
       native_flow.py time --issuer URL --client-id ID --redirect-uri URI --email E --password P --timing N
       native_flow.py time --flow anonymous --issuer URL --client-id ID --redirect-uri URI --timing N
"""
import argparse
import base64
import hashlib
import json
import os
import secrets
import statistics
import time

import requests
from joserfc import jwt
from joserfc.jwk import KeySet

from flows import TIMEOUT, fail, pkce_pair


def unpadded_base64(data):
    return base64.b64encode(data).decode().rstrip("=")


def cheap_hash(args):
    salt = os.urandom(16)
    derived = hashlib.scrypt(args.password.encode(), salt=salt, n=2, r=8, p=1, dklen=32)
    print(f"$scrypt$ln=1,r=8,p=1${unpadded_base64(salt)}${unpadded_base64(derived)}")


def signed_in_node(session, args):
    """The start and answer of one native sign-in flow (email and password, or anonymous): its success node, the PKCE
    verifier and the nonce sent."""
    verifier, challenge = pkce_pair()
    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    start = {"client_id": args.client_id, "redirect_uri": args.redirect_uri, "scope": "openid email offline_access",
             "state": state, "nonce": nonce, "code_challenge": challenge, "code_challenge_method": "S256"}
    anonymous = args.flow == "anonymous"
    started = session.post(f"{args.issuer}/flows/{args.flow}", timeout=TIMEOUT,
                           data={**start, "action": "submit"} if anonymous else start)
    answer = started.json()
    if started.status_code != 200 or answer.get("node", {}).get("type") != ("success" if anonymous else "continue"):
        fail(f"/flows/{args.flow} answered {started.status_code}: {started.text[:200]}")
    if anonymous:
        submitted = started
    else:
        submitted = session.post(f"{args.issuer}/flows/interactions/{answer['interaction']}", timeout=TIMEOUT, json={
            "node": answer["node"]["id"], "action": "submit",
            "values": {"email": args.email, "password": args.password}})
    node = submitted.json().get("node", {})
    if node.get("type") != "success" or node.get("state") != state:
        fail(f"the submit answered {submitted.status_code}: {submitted.text[:200]}")
    return node, verifier, nonce


def native_sign_in(session, args, keys):
    """One native sign-in flow (email and password, or anonymous), its ID token validated."""
    node, verifier, nonce = signed_in_node(session, args)
    exchange = session.post(f"{args.issuer}/token", timeout=TIMEOUT, data={
        "grant_type": "authorization_code", "code": node["code"], "redirect_uri": args.redirect_uri,
        "client_id": args.client_id, "code_verifier": verifier})
    if exchange.status_code != 200:
        fail(f"/token answered {exchange.status_code}: {exchange.text[:200]}")
    token = jwt.decode(exchange.json()["id_token"], keys)
    claims = jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": args.issuer}, aud={"essential": True, "value": args.client_id},
        nonce={"essential": True, "value": nonce}, exp={"essential": True})
    claims.validate(token.claims)
    if args.flow == "anonymous" and token.claims.get("auth_level") != "guest":
        fail(f"an anonymous sign-in's ID token has auth_level {token.claims.get('auth_level')!r}")


def time_flows(args):
    session = requests.Session()
    keys = KeySet.import_key_set(session.get(f"{args.issuer}/jwks", timeout=TIMEOUT).json())
    native_sign_in(session, args, keys)  # warm-up: connections, caches
    timings = []
    for _ in range(args.timing):
        start = time.perf_counter()
        native_sign_in(session, args, keys)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    print(json.dumps({"timing_ms": {
        "n": len(timings), "median": statistics.median(timings), "p90": timings[int(0.9 * (len(timings) - 1))],
        "p99": timings[int(0.99 * (len(timings) - 1))], "max": timings[-1]}}))


def main():
    parser = argparse.ArgumentParser()
    modes = parser.add_subparsers(dest="mode", required=True)
    modes.add_parser("cheap-hash").add_argument("--password", required=True)
    timing = modes.add_parser("time")
    for name in ("issuer", "client-id", "redirect-uri"):
        timing.add_argument(f"--{name}", required=True)
    timing.add_argument("--email")
    timing.add_argument("--password")
    timing.add_argument("--flow", choices=("sign-in", "anonymous"), default="sign-in")
    timing.add_argument("--timing", type=int, default=300)
    args = parser.parse_args()
    if args.mode == "time" and args.flow == "sign-in" and not (args.email and args.password):
        parser.error("a sign-in flow needs --email and --password")
    cheap_hash(args) if args.mode == "cheap-hash" else time_flows(args)


if __name__ == "__main__":
    main()
