#!/usr/bin/env python3
"""A native app signs a user in through a Limen Server flow's IDP collector, with glewlwyd in a real headless Chromium.

The script plays the app over HTTP and Chromium plays the platform's web session: the app starts Limen's sign-in flow
pressing "Continue with Glewlwyd" (`action=idp-glewlwyd`) and gets a `redirect` node; Chromium opens its URL, which is
glewlwyd's own login page, where the user types their name and password and presses Login, then Continue; glewlwyd
sends the browser back to Limen, which sends it on to the app's loopback redirect URI (served by this script) with a
one-time code, state and iss. The app continues the interaction with that code (and allows on the consent node a
third-party app gets) and gets the success node.

Prints one JSON object with what it saw; exits non-zero on any unexpected step.

Usage: native_upstream_glewlwyd.py --issuer URL --client-id ID --username U --password P
"""
import argparse
import base64
import hashlib
import json
import secrets
from urllib.parse import urlparse

import requests

from sign_in import (CALLBACK_PATH, TIMEOUT, Callback, fail, start_browser, start_callback_server, wait_until)
from upstream_glewlwyd import landed_query, sign_in_at_glewlwyd

IDP_KEY = "idp-glewlwyd"


def arguments():
    parser = argparse.ArgumentParser()
    for name in ("--issuer", "--client-id", "--username", "--password"):
        parser.add_argument(name, required=True)
    return parser


def start_pressing_idp(args, redirect_uri, state):
    """POST /flows/sign-in pressing the IDP collector at once: the interaction and the redirect node."""
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    answer = requests.post(f"{args.issuer}/flows/sign-in", data={
        "client_id": args.client_id, "redirect_uri": redirect_uri, "scope": "openid email profile",
        "state": state, "nonce": secrets.token_urlsafe(16), "code_challenge": challenge,
        "code_challenge_method": "S256", "action": IDP_KEY,
    }, timeout=TIMEOUT)
    body = answer.json()
    if answer.status_code != 200 or body.get("node", {}).get("type") != "redirect":
        fail(f"the press answered {answer.status_code}: {body}")
    return body["interaction"], body["node"]


def submit(args, interaction, node, action, values):
    """POST /flows/interactions/{id}: the answer's JSON."""
    return requests.post(f"{args.issuer}/flows/interactions/{interaction}", json={
        "node": node, "action": action, "values": values, "client_id": args.client_id,
    }, timeout=TIMEOUT).json()


def main():
    args = arguments().parse_args()
    server = start_callback_server()
    redirect_uri = f"http://127.0.0.1:{server.server_address[1]}{CALLBACK_PATH}"
    state = secrets.token_urlsafe(16)
    interaction, node = start_pressing_idp(args, redirect_uri, state)
    driver = start_browser()
    try:
        driver.get(node["url"])
        wait_until(driver, lambda d: urlparse(d.current_url).path.endswith("/login.html"))
        upstream_page = driver.current_url.split("?")[0]
        sign_in_at_glewlwyd(driver, args)
        landed = landed_query(driver, redirect_uri)
    finally:
        driver.quit()
        server.shutdown()
    if not landed.get("code"):
        fail(f"no code at the app: {landed}")
    answer = submit(args, interaction, "credentials", IDP_KEY, {"code": landed["code"][0]})
    consent_asked = answer.get("node", {}).get("id") == "consent"
    if consent_asked:
        answer = submit(args, interaction, "consent", "allow", {})
    success = answer.get("node", {})
    if success.get("type") != "success":
        fail(f"the continuation answered {answer}")
    print(json.dumps({
        "provider": node.get("provider"),
        "upstream_page": upstream_page,
        "state_matches": landed.get("state", [None])[0] == state,
        "iss": landed.get("iss", [None])[0],
        "callbacks": len(Callback.received),
        "consent_asked": consent_asked,
        "code": success["code"],
    }))


if __name__ == "__main__":
    main()
