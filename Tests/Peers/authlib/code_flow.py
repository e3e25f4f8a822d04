#!/usr/bin/env python3
"""A third-party OpenID client (Authlib + joserfc) against Limen Server.

Runs authorization code + PKCE (S256) as a relying party would: discovery, an authorization request built by Authlib,
a headless "browser" (requests) through the hosted sign-in and consent pages, the code exchange by Authlib, and ID
token verification with joserfc against the provider's JWKS. Then the refusals: the same code again, and a code
redeemed with the wrong verifier. Prints one JSON object with what it saw; exits non-zero on any unexpected answer.

Usage: code_flow.py --issuer URL --client-id ID [--client-secret S] --redirect-uri URI --email E --password P
"""
import argparse
import json
import secrets
import sys
from urllib.parse import parse_qs, urlparse

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from joserfc import jwt
from joserfc.jwk import KeySet

from hosted_pages import TIMEOUT, fail, sign_in


def error_of(call):
    try:
        call()
    except Exception as error:  # Authlib raises OAuthError with .error
        return getattr(error, "error", type(error).__name__)
    return None


def main():
    parser = argparse.ArgumentParser()
    for name in ("issuer", "client-id", "redirect-uri", "email", "password"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--client-secret")
    args = parser.parse_args()

    metadata = requests.get(args.issuer + "/.well-known/openid-configuration", timeout=TIMEOUT).json()
    if metadata["issuer"] != args.issuer:
        fail(f"issuer mismatch: {metadata['issuer']}")
    keys = KeySet.import_key_set(requests.get(metadata["jwks_uri"], timeout=TIMEOUT).json())
    method = "client_secret_basic" if args.client_secret else "none"

    def session():
        return OAuth2Session(
            args.client_id, args.client_secret, scope="openid email profile", redirect_uri=args.redirect_uri,
            code_challenge_method="S256", token_endpoint_auth_method=method)

    browser = requests.Session()
    client = session()
    verifier = generate_token(64)
    nonce = secrets.token_urlsafe(16)
    url, state = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
    callback = sign_in(browser, url, args.redirect_uri, args.email, args.password)
    query = parse_qs(urlparse(callback).query)
    if query.get("iss") != [args.issuer]:
        fail(f"RFC 9207 iss missing or wrong in {callback}")
    token = client.fetch_token(
        metadata["token_endpoint"], authorization_response=callback, code_verifier=verifier, state=state)

    decoded = jwt.decode(token["id_token"], keys, algorithms=["ES256", "RS256"])
    jwt.JWTClaimsRegistry(
        leeway=60,
        iss={"essential": True, "value": args.issuer},
        aud={"essential": True, "value": args.client_id},
        nonce={"essential": True, "value": nonce},
        sub={"essential": True},
        exp={"essential": True},
        iat={"essential": True},
    ).validate(decoded.claims)

    replay = error_of(lambda: session().fetch_token(
        metadata["token_endpoint"], authorization_response=callback, code_verifier=verifier, state=state))

    other = session()
    other_verifier = generate_token(64)
    other_url, other_state = other.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=other_verifier, nonce=secrets.token_urlsafe(16))
    other_callback = sign_in(browser, other_url, args.redirect_uri, args.email, args.password)
    wrong_verifier = error_of(lambda: other.fetch_token(
        metadata["token_endpoint"], authorization_response=other_callback, code_verifier=generate_token(64),
        state=other_state))

    print(json.dumps({
        "sub": decoded.claims["sub"],
        "alg": decoded.header["alg"],
        "token_type": token.get("token_type"),
        "has_refresh_token": "refresh_token" in token,
        "replayed_code_error": replay,
        "wrong_verifier_error": wrong_verifier,
    }))


if __name__ == "__main__":
    main()
