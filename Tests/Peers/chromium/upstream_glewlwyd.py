#!/usr/bin/env python3
"""Signs a user in to an app through Limen Server through glewlwyd, in a real headless Chromium.

As a user would: the app's authorization request shows Limen's sign-in page (checked with axe-core), whose "Continue
with Glewlwyd" button leads to glewlwyd's own login page; there the user types their name and password and presses
Login, then Continue; glewlwyd sends the browser back to Limen, which asks for consent (Allow) and lands on the app's
loopback redirect URI (served by this script) with code, state and iss.

Prints one JSON object with what it saw; exits non-zero on any unexpected page.

Usage: upstream_glewlwyd.py --issuer URL --client-id ID --upstream-issuer URL --username U --password P
"""
import argparse
import json
import secrets
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.common.by import By

from flow_pages import CHECKED, check, wait_for_redirect
from sign_in import (CALLBACK_PATH, Callback, authorization_url, click_for_new_page, fail, start_browser,
                     start_callback_server, wait_for_heading, wait_until)

CONTINUE = "//button[contains(., 'Continue')]"


def arguments():
    parser = argparse.ArgumentParser()
    for name in ("--issuer", "--client-id", "--upstream-issuer", "--username", "--password"):
        parser.add_argument(name, required=True)
    return parser


def sign_in_at_glewlwyd(driver, args):
    """glewlwyd's login page (a JavaScript app): name, password, Login, then Continue to the client."""
    wait_until(driver, lambda d: d.find_elements(By.ID, "username") and d.find_elements(By.ID, "password"))
    driver.find_element(By.ID, "username").send_keys(args.username)
    driver.find_element(By.ID, "password").send_keys(args.password)
    # The password scheme's button is `loginbut` in glewlwyd 2.7.5 (`loginBut` in other screens and versions).
    (driver.find_elements(By.ID, "loginbut") or driver.find_elements(By.ID, "loginBut"))[0].click()
    wait_until(driver, lambda d: d.find_elements(By.XPATH, CONTINUE))
    driver.find_element(By.XPATH, CONTINUE).click()


def landed_query(driver, redirect_uri):
    """Waits for the app's redirect URI and returns its query; fails with what the page shows otherwise."""
    try:
        wait_for_redirect(driver, redirect_uri)
    except Exception:
        shown = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "h1, p")]
        fail(f"expected the app's redirect URI, got {driver.current_url}: {shown}")
    return parse_qs(urlparse(driver.current_url).query)


def main():
    args = arguments().parse_args()
    server = start_callback_server()
    redirect_uri = f"http://127.0.0.1:{server.server_address[1]}{CALLBACK_PATH}"
    state = secrets.token_urlsafe(16)
    driver = start_browser()
    try:
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, state))
        wait_for_heading(driver, "Sign in")
        check(driver, "sign-in-with-providers")
        buttons = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "section.federation button")]
        driver.find_element(By.XPATH, "//button[normalize-space(.)='Continue with Glewlwyd']").click()
        wait_until(driver, lambda d: urlparse(d.current_url).path.endswith("/login.html"))
        upstream_page = driver.current_url
        sign_in_at_glewlwyd(driver, args)
        wait_for_heading(driver, "Allow access?")
        click_for_new_page(driver, "button[value=allow]")
        landed = landed_query(driver, redirect_uri)
    finally:
        driver.quit()
        server.shutdown()
    if not landed.get("code"):
        fail(f"no code at the app: {landed}")
    print(json.dumps({
        "pages": CHECKED,
        "buttons": buttons,
        "upstream_page": upstream_page.split("?")[0],
        "code": landed["code"][0],
        "state_matches": landed.get("state", [None])[0] == state,
        "iss": landed.get("iss", [None])[0],
        "callbacks": len(Callback.received),
    }))


if __name__ == "__main__":
    main()
