#!/usr/bin/env python3
"""DPoP (RFC 9449) tools for the Limen Server benchmarks (Server/Benchmarks/run.sh BENCH_ONLY=dpop, issue 23 §7). Not
a test.

tokens: runs --count native email + password sign-ins of the public client --client-id (native_flow.py's flow) and
        prints the refresh token of each, one a line. With --key-file, each code is redeemed with a DPoP proof of that
        ES256 key (made first when the file does not exist), so the tokens are bound to it and the answer must say
        token_type DPoP.
mint:   prints --count DPoP proofs of --key-file for POST {issuer}/token, one a line, each with a jti of its own and
        iat now: signed with Python's cryptography before the run, since wrk's Lua cannot sign. The server (started with
        --dpop-proof-max-age 5m by run.sh) accepts a proof until 300 s after its iat, so a run must use them by then.

Usage: dpop_tokens.py tokens --issuer URL --client-id ID --redirect-uri URI --email E --password P --count N
                             [--key-file PEM]
       dpop_tokens.py mint --issuer URL --key-file PEM --count N
"""
import argparse
import base64
import json
import secrets
import sys
import time
from pathlib import Path

import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from flows import TIMEOUT, fail
from native_flow import signed_in_node


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def load_key(path):
    """The ES256 key in the PEM file at `path`, made and written there first when there is none."""
    file = Path(path)
    if not file.exists():
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        file.write_bytes(pem)
    return serialization.load_pem_private_key(file.read_bytes(), password=None)


class ProofMaker:
    """DPoP proofs of one key for one request (RFC 9449 §4.2): the header once, the claims and signature each time."""

    def __init__(self, key, method, url):
        numbers = key.public_key().public_numbers()
        jwk = {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
               "y": b64url(numbers.y.to_bytes(32, "big"))}
        header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}
        self.key, self.method, self.url = key, method, url
        self.header = b64url(json.dumps(header, separators=(",", ":")).encode())

    def proof(self, issued_at):
        claims = {"jti": secrets.token_urlsafe(16), "htm": self.method, "htu": self.url, "iat": issued_at}
        signing_input = f"{self.header}.{b64url(json.dumps(claims, separators=(',', ':')).encode())}"
        r, s = decode_dss_signature(self.key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        return f"{signing_input}.{b64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def refresh_tokens(args):
    maker = ProofMaker(load_key(args.key_file), "POST", f"{args.issuer}/token") if args.key_file else None
    session = requests.Session()
    args.flow = "sign-in"
    for _ in range(args.count):
        node, verifier, _ = signed_in_node(session, args)
        headers = {"DPoP": maker.proof(int(time.time()))} if maker else {}
        answer = session.post(f"{args.issuer}/token", timeout=TIMEOUT, headers=headers, data={
            "grant_type": "authorization_code", "code": node["code"], "redirect_uri": args.redirect_uri,
            "client_id": args.client_id, "code_verifier": verifier})
        tokens = answer.json() if answer.status_code == 200 else {}
        if "refresh_token" not in tokens or tokens.get("token_type") != ("DPoP" if maker else "Bearer"):
            fail(f"/token answered {answer.status_code}: {answer.text[:200]}")
        print(tokens["refresh_token"])


def mint(args):
    maker = ProofMaker(load_key(args.key_file), "POST", f"{args.issuer}/token")
    issued_at = int(time.time())
    sys.stdout.writelines(maker.proof(issued_at) + "\n" for _ in range(args.count))


def main():
    parser = argparse.ArgumentParser()
    modes = parser.add_subparsers(dest="mode", required=True)
    tokens = modes.add_parser("tokens")
    for name in ("issuer", "client-id", "redirect-uri", "email", "password"):
        tokens.add_argument(f"--{name}", required=True)
    tokens.add_argument("--count", type=int, required=True)
    tokens.add_argument("--key-file")
    minting = modes.add_parser("mint")
    for name in ("issuer", "key-file"):
        minting.add_argument(f"--{name}", required=True)
    minting.add_argument("--count", type=int, required=True)
    args = parser.parse_args()
    refresh_tokens(args) if args.mode == "tokens" else mint(args)


if __name__ == "__main__":
    main()
