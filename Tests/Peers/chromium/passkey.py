#!/usr/bin/env python3
"""Signs in with a passkey on Limen Server's hosted pages in a real headless Chromium, whose CDP virtual authenticator
(Selenium's add_virtual_authenticator: CTAP2, platform, resident keys, user verification) holds the passkey the test
gave the server.

As a user would: the client's authorization URL shows the sign-in page, "Sign in with a passkey" leads to the passkey
page (checked with axe-core), and its button runs the browser's WebAuthn ceremony through the page's script; the
browser lands on the client's loopback redirect URI with a code.

Prints one JSON object: the callback's query, the passkey page's axe-core results and the credential's sign count
after the sign-in. Exits non-zero on any unexpected page.

Usage: passkey.py --issuer URL --client-id ID --rp-id ID --credential-id B64URL --user-handle B64URL
       --private-key B64URL (PKCS #8 DER)
"""
import argparse
import base64
import json
import secrets

from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Credential

from sign_in import (CALLBACK_PATH, PageAxe, Callback, add_platform_authenticator, authorization_url,
                     click_for_new_page, fail, simulate_presence, start_browser, start_callback_server,
                     wait_for_heading, wait_until)


def decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def main():
    parser = argparse.ArgumentParser()
    for name in ("--issuer", "--client-id", "--rp-id", "--credential-id", "--user-handle", "--private-key"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    server = start_callback_server()
    driver = start_browser()
    try:
        add_platform_authenticator(driver)
        driver.add_credential(Credential.create_resident_credential(
            bytearray(decode(args.credential_id)), args.rp_id, bytearray(decode(args.user_handle)),
            decode(args.private_key), 0))

        redirect_uri = f"http://127.0.0.1:{server.server_port}{CALLBACK_PATH}"
        # Off on the sign-in page, whose autofill request would otherwise sign in before the button is pressed.
        simulate_presence(driver, False)
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(8)))
        wait_for_heading(driver, "Sign in")
        # The autofill's request, started with the page with its sign-in node's challenge, waits.
        wait_until(driver, lambda d: d.execute_script(
            "return document.documentElement.getAttribute('data-passkey-autofill') === 'pending'"))
        click_for_new_page(driver, "button[value=passkey]")
        wait_for_heading(driver, "Sign in with a passkey")
        results = PageAxe().run(driver)
        simulate_presence(driver, True)
        driver.find_element(By.CSS_SELECTOR, "button[data-passkey]").click()
        wait_until(driver, lambda d: d.current_url.startswith(redirect_uri))
        if not Callback.received:
            fail(f"the client was not called back; the browser is at {driver.current_url}")
        credentials = driver.get_credentials()
        print(json.dumps({
            "callback": {key: values[0] for key, values in Callback.received[-1].items()},
            "axe": {
                "passes": len(results.get("passes", [])),
                "violations": [v["id"] for v in results.get("violations", [])],
            },
            "sign_count": credentials[0].sign_count if credentials else -1,
        }))
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
