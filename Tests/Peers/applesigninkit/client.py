#!/usr/bin/env python3
"""A client of AppleSignInKit's backend contract, written from the seed's README alone (its "Backend API Contract").

The app's side of Apple (the identity token and the raw nonce the app generated) comes from the arguments; this script
then talks to the backend exactly as the README describes: POST /auth/apple/native, GET /auth/me, POST /auth/refresh,
POST /auth/logout, reading the JSON shapes it documents and treating 401 as "sign in again". It runs two sessions:
the first signs in, reads the user, refreshes (the refresh token must rotate), logs out and sees the refresh refused;
the second refreshes, then replays its first refresh token, after which the session is over. Prints one JSON object
with what it saw; exits non-zero on any unexpected answer. Standard library only.

Usage: client.py --base-url URL --identity-token T --nonce N --second-identity-token T2 --second-nonce N2
                 [--full-name NAME] [--email E]
"""
import argparse
import json
import sys
import urllib.error
import urllib.request

TIMEOUT = 60  # stops a hung test only: the whole suite runs at once, a loaded machine is slow


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def call(base_url, method, path, body=None, access_token=None):
    """The status and JSON body (or None) of one request, as AppleSignInKit's APIClient would send it."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + path, data=data, method=method)
    request.add_header("Accept", "application/json")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if access_token is not None:
        request.add_header("Authorization", "Bearer " + access_token)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, None


def expect_user(user, where):
    """AuthUser: id (string), email, displayName, createdAt (ISO 8601 or absent)."""
    if not isinstance(user, dict) or not isinstance(user.get("id"), str) or not user["id"]:
        fail(f"{where}: no user id in {user!r}")
    for optional in ("email", "displayName", "createdAt"):
        if user.get(optional) is not None and not isinstance(user[optional], str):
            fail(f"{where}: {optional} is not a string")
    return user


def expect_tokens(body, where):
    """accessToken, refreshToken (strings) and expiresIn (a number of seconds)."""
    if not isinstance(body, dict):
        fail(f"{where}: not a JSON object")
    if not isinstance(body.get("accessToken"), str) or not isinstance(body.get("refreshToken"), str):
        fail(f"{where}: tokens missing in {sorted(body)}")
    if not isinstance(body.get("expiresIn"), (int, float)) or body["expiresIn"] <= 0:
        fail(f"{where}: expiresIn missing")
    return body


def native_sign_in(base_url, identity_token, nonce, full_name, email):
    request = {"identityToken": identity_token, "nonce": nonce, "authorizationCode": "code-from-apple"}
    if full_name is not None:
        request["fullName"] = full_name
    if email is not None:
        request["email"] = email
    status, body = call(base_url, "POST", "/auth/apple/native", request)
    if status != 200 or not isinstance(body, dict) or body.get("success") is not True:
        fail(f"/auth/apple/native answered {status}: {body!r}")
    expect_user(body.get("user"), "/auth/apple/native")
    return expect_tokens(body, "/auth/apple/native")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--identity-token", required=True)
    parser.add_argument("--nonce", required=True)
    parser.add_argument("--second-identity-token", required=True)
    parser.add_argument("--second-nonce", required=True)
    parser.add_argument("--full-name")
    parser.add_argument("--email")
    arguments = parser.parse_args()
    base_url = arguments.base_url.rstrip("/")
    summary = {}

    signed_in = native_sign_in(base_url, arguments.identity_token, arguments.nonce, arguments.full_name, arguments.email)
    summary["user"] = signed_in["user"]

    status, body = call(base_url, "GET", "/auth/me", access_token=signed_in["accessToken"])
    if status != 200 or not isinstance(body, dict):
        fail(f"/auth/me answered {status}")
    summary["me"] = expect_user(body.get("user"), "/auth/me")

    status, body = call(base_url, "POST", "/auth/refresh", {"refreshToken": signed_in["refreshToken"]})
    if status != 200:
        fail(f"/auth/refresh answered {status}: {body!r}")
    refreshed = expect_tokens(body, "/auth/refresh")
    summary["refresh_rotated"] = refreshed["refreshToken"] != signed_in["refreshToken"]
    summary["me_after_refresh_status"] = call(base_url, "GET", "/auth/me", access_token=refreshed["accessToken"])[0]

    summary["logout_status"] = call(base_url, "POST", "/auth/logout", access_token=refreshed["accessToken"])[0]
    summary["refresh_after_logout_status"] = call(
        base_url, "POST", "/auth/refresh", {"refreshToken": refreshed["refreshToken"]})[0]
    summary["me_after_logout_status"] = call(base_url, "GET", "/auth/me", access_token=refreshed["accessToken"])[0]

    second = native_sign_in(base_url, arguments.second_identity_token, arguments.second_nonce, None, None)
    status, body = call(base_url, "POST", "/auth/refresh", {"refreshToken": second["refreshToken"]})
    if status != 200:
        fail(f"/auth/refresh (second session) answered {status}: {body!r}")
    successor = expect_tokens(body, "/auth/refresh")
    status, body = call(base_url, "POST", "/auth/refresh", {"refreshToken": successor["refreshToken"]})
    if status != 200:
        fail(f"/auth/refresh (successor) answered {status}: {body!r}")
    latest = expect_tokens(body, "/auth/refresh")
    summary["replayed_refresh_status"] = call(
        base_url, "POST", "/auth/refresh", {"refreshToken": second["refreshToken"]})[0]
    summary["latest_after_replay_status"] = call(
        base_url, "POST", "/auth/refresh", {"refreshToken": latest["refreshToken"]})[0]
    summary["second_user_id"] = second["user"]["id"]

    print(json.dumps(summary))


if __name__ == "__main__":
    main()
