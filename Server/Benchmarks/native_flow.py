#!/usr/bin/env python3
"""Native sign-in flow tools for the Limen Server benchmarks (Server/Benchmarks/run.sh, issue 10 §5). Not a test.

cheap-hash: prints an scrypt hash of --password in Limen's encoding with N = 2 (the cheapest), for run.sh to store
            as the benchmark user's hash, so that the flows measure everything but the password hash.
time:       runs --timing native email + password sign-ins one after another, each: POST /flows/sign-in (the PKCE
            challenge, state and nonce) -> POST /flows/interactions/ID with the email and password -> the success
            node's code -> POST /token with the verifier -> the ID token validated with joserfc (signature against
            the issuer's JWKS, fetched once, then iss, aud, exp and nonce). Prints {"timing_ms": {"n", "median",
            "p90", "max"}}.

Usage: native_flow.py cheap-hash --password P
       native_flow.py time --issuer URL --client-id ID --redirect-uri URI --email E --password P --timing N
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


def native_sign_in(session, args, keys):
    """One native sign-in flow, its ID token validated."""
    verifier, challenge = pkce_pair()
    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    started = session.post(f"{args.issuer}/flows/sign-in", timeout=TIMEOUT, data={
        "client_id": args.client_id, "redirect_uri": args.redirect_uri, "scope": "openid email",
        "state": state, "nonce": nonce, "code_challenge": challenge, "code_challenge_method": "S256"})
    answer = started.json()
    if started.status_code != 200 or answer.get("node", {}).get("type") != "continue":
        fail(f"/flows/sign-in answered {started.status_code}: {started.text[:200]}")
    submitted = session.post(f"{args.issuer}/flows/interactions/{answer['interaction']}", timeout=TIMEOUT, json={
        "node": answer["node"]["id"], "action": "submit",
        "values": {"email": args.email, "password": args.password}})
    node = submitted.json().get("node", {})
    if node.get("type") != "success" or node.get("state") != state:
        fail(f"the submit answered {submitted.status_code}: {submitted.text[:200]}")
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
        "max": timings[-1]}}))


def main():
    parser = argparse.ArgumentParser()
    modes = parser.add_subparsers(dest="mode", required=True)
    modes.add_parser("cheap-hash").add_argument("--password", required=True)
    timing = modes.add_parser("time")
    for name in ("issuer", "client-id", "redirect-uri", "email", "password"):
        timing.add_argument(f"--{name}", required=True)
    timing.add_argument("--timing", type=int, default=300)
    args = parser.parse_args()
    cheap_hash(args) if args.mode == "cheap-hash" else time_flows(args)


if __name__ == "__main__":
    main()
