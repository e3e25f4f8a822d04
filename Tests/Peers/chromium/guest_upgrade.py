#!/usr/bin/env python3
"""A guest upgrading on the web, in a real headless Chromium: the anonymous flow's page makes the browser a guest, and
the same browser then creates an account, which the guest becomes (same user, now with an address).

As a user would: a client's authorization request shows the sign-in page; its pending request is continued on the
`anonymous` flow's page (/login?flow=anonymous, where an app's "Continue as a guest" link leads), checked with
axe-core; "Continue as a guest", then the consent page's Allow, lands on the client with a first code. A second
request with prompt=login shows the sign-in page again; "Create an account", the email, the mailed code and a password
land on the client with a second code (no consent asked: the guest allowed the client before).

Prints one JSON object with the two codes and the page checked; exits non-zero on any unexpected page.

Usage: guest_upgrade.py --issuer URL --client-id ID --email E --password P --mail-dir DIR
"""
import json
import secrets
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.common.by import By

from flow_pages import CHECKED, check, wait_for_redirect
from sign_in import (CALLBACK_PATH, Callback, account_arguments, authorization_url, click_for_new_page, sign_up,
                     start_browser, start_callback_server, wait_for_heading)


def landed_code(driver):
    """The code in the query of the client's redirect URI the browser is on."""
    return parse_qs(urlparse(driver.current_url).query).get("code", [None])[0]


def main():
    args = account_arguments().parse_args()
    server = start_callback_server()
    redirect_uri = f"http://127.0.0.1:{server.server_address[1]}{CALLBACK_PATH}"
    driver = start_browser()
    try:
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(16)))
        wait_for_heading(driver, "Sign in")
        request = driver.find_element(By.CSS_SELECTOR, "input[name=request]").get_attribute("value")
        driver.get(f"{args.issuer}/login?flow=anonymous&request={request}")
        wait_for_heading(driver, "Continue as a guest")
        check(driver, "anonymous")
        click_for_new_page(driver, "button[type=submit]")
        wait_for_heading(driver, "Allow access?")
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        wait_for_redirect(driver, redirect_uri)
        guest_code = landed_code(driver)
        guest_session = driver.get_cookie("limen_session") is not None

        url = authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(16))
        driver.get(url + "&prompt=login")
        wait_for_heading(driver, "Sign in")
        sign_up(driver, args)
        wait_for_redirect(driver, redirect_uri)
        account_code = landed_code(driver)
    finally:
        driver.quit()
        server.shutdown()

    print(json.dumps({
        "pages": CHECKED,
        "guest_code": guest_code,
        "guest_session": guest_session,
        "account_code": account_code,
        "callbacks": len(Callback.received),
    }))


if __name__ == "__main__":
    main()
