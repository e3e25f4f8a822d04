#!/usr/bin/env python3
"""Registers a passkey and turns on two-step sign-in on Limen Server's hosted account page in a real headless Chromium,
whose CDP virtual authenticator (Selenium's add_virtual_authenticator: CTAP2, platform, resident keys, user
verification, presence simulated) creates and holds the passkey.

As a user would: signs in with the email and password through a client's authorization request, opens /account, names
and adds a passkey (the page's script runs the WebAuthn ceremony; the page with the passkey listed is checked with
axe-core), signs out everywhere, and signs in again with "Sign in with a passkey", then again by picking the passkey
from the email field's autofill (conditional mediation: the sign-in page's own request, with the challenge of its node,
started with the page and fetching nothing). Then on /account sets up an
authenticator app (the set-up page checked with axe-core) with a pyotp code, reads the recovery codes, signs out
everywhere, and signs in with the password: the second step asks for a code, and a pyotp code of a later time step
than the one used completes it.

Prints one JSON object with what it saw; exits non-zero on any unexpected page.

Usage: account_passkeys.py --issuer URL --client-id ID --email E --password P
"""
import argparse
import json
import secrets
import time

import pyotp
from selenium.webdriver.common.by import By

from sign_in import (CALLBACK_PATH, PageAxe, Callback, add_platform_authenticator, authorization_url,
                     click_for_new_page, fail, simulate_presence, start_browser, start_callback_server,
                     wait_for_heading, wait_until)


def axe_summary(driver):
    """axe-core's results for the current page: how many rules passed, and the IDs of those violated."""
    results = PageAxe().run(driver)
    return {
        "passes": len(results.get("passes", [])),
        "violations": [violation["id"] for violation in results.get("violations", [])],
    }


def texts(driver, selector):
    return [element.text for element in driver.find_elements(By.CSS_SELECTOR, selector)]


def main():
    parser = argparse.ArgumentParser()
    for name in ("--issuer", "--client-id", "--email", "--password"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    server = start_callback_server()
    driver = start_browser()
    redirect_uri = f"http://127.0.0.1:{server.server_port}{CALLBACK_PATH}"

    def sign_in_page():
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(8)))
        wait_for_heading(driver, "Sign in")
        # The autofill's request, started with the page with its sign-in node's challenge, waits.
        wait_until(driver, lambda d: d.execute_script(
            "return document.documentElement.getAttribute('data-passkey-autofill') === 'pending'"))
        return {
            "conditional_fields": len(driver.find_elements(By.CSS_SELECTOR, "input[data-mediation=conditional]")),
            "fetches": driver.execute_script(
                "return performance.getEntriesByType('resource')"
                ".filter(function (entry) { return entry.initiatorType === 'fetch'; }).length"),
        }

    def called_back():
        wait_until(driver, lambda d: d.current_url.startswith(redirect_uri))
        if not Callback.received:
            fail(f"the client was not called back; the browser is at {driver.current_url}")
        return Callback.received[-1].get("code", [None])[0]

    def password():
        driver.find_element(By.ID, "email").send_keys(args.email)
        driver.find_element(By.ID, "password").send_keys(args.password)
        click_for_new_page(driver, "button[type=submit]")

    def account(button):
        driver.get(f"{args.issuer}/account")
        wait_for_heading(driver, "Your account")
        if button:
            click_for_new_page(driver, f"button[value={button}]")
            wait_for_heading(driver, "Your account")

    def sign_out_everywhere():
        account(None)
        driver.find_element(By.CSS_SELECTOR, "button[value=sign_out_everywhere]").click()
        wait_for_heading(driver, "Signed out everywhere")

    try:
        add_platform_authenticator(driver)

        sign_in_page()
        password()
        password_code = called_back()

        account(None)
        driver.find_element(By.ID, "passkey-name").send_keys("Chromium")
        click_for_new_page(driver, "button[value=add_passkey]")
        wait_for_heading(driver, "Your account")
        added = texts(driver, "#form-notice") + texts(driver, "#form-error")
        listed = texts(driver, ".passkey-details")
        axe_passkeys = axe_summary(driver)

        sign_out_everywhere()
        # Presence off on the sign-in page, whose autofill request would otherwise sign in before the button.
        simulate_presence(driver, False)
        autofill_page = sign_in_page()
        click_for_new_page(driver, "button[value=passkey]")
        wait_for_heading(driver, "Sign in with a passkey")
        simulate_presence(driver, True)
        driver.find_element(By.CSS_SELECTOR, "button[data-passkey]").click()
        passkey_code = called_back()

        # Autofill: the sign-in page's script starts a conditional request, which the virtual authenticator (presence
        # simulated) answers at once with the passkey.
        sign_out_everywhere()
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(8)))
        autofill_code = called_back()

        account("set_up_totp")
        axe_setup = axe_summary(driver)
        totp = pyotp.TOTP(driver.find_element(By.ID, "totp-secret").text)
        enabled_step = int(time.time() // 30)
        driver.find_element(By.ID, "enable-code").send_keys(totp.at(enabled_step * 30))
        click_for_new_page(driver, "button[value=enable_totp]")
        wait_for_heading(driver, "Your account")
        two_step = texts(driver, "#two-step-status")
        recovery_codes = texts(driver, "#recovery-codes li")

        sign_out_everywhere()
        simulate_presence(driver, False)
        sign_in_page()
        password()
        wait_for_heading(driver, "Two-step sign-in")
        # The step used to turn it on is spent: a later one, within the server's window of one step either side.
        step = max(enabled_step + 1, int(time.time() // 30))
        driver.find_element(By.ID, "totp").send_keys(totp.at(step * 30))
        driver.find_element(By.CSS_SELECTOR, "button[value=submit-totp]").click()
        second_step_code = called_back()
        credentials = driver.get_credentials()
    finally:
        driver.quit()
        server.shutdown()

    print(json.dumps({
        "password_code": password_code,
        "added": added,
        "listed": listed,
        "axe_passkeys": axe_passkeys,
        "passkey_code": passkey_code,
        "autofill_code": autofill_code,
        "autofill_page": autofill_page,
        "axe_setup": axe_setup,
        "two_step": two_step,
        "recovery_codes": len(recovery_codes),
        "second_step_code": second_step_code,
        "credentials": len(credentials),
    }))


if __name__ == "__main__":
    main()
