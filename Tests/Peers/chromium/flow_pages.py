#!/usr/bin/env python3
"""Drives every page Limen Server's flow engine renders in a real headless Chromium, and checks each with axe-core.

The server runs with an operator's sign-up flow that adds a required "I accept the terms" checkbox, and sends its
mail to an SMTP server that keeps each message in --mail-dir (the one-time code ends the subject). As a user would:
the sign-in page, a wrong password, sign-up refused with the box unticked (the browser's own check turned off, so
the server's answer shows) and accepted ticked, the mailed code (a wrong one first) with the password, consent, then password reset and sign-in by email code from the sign-in
page's links. Every page is checked with axe-core (axe-core-python injects it through Selenium) in its first state
and in its error state.

Prints one JSON object: the pages checked with their violations, and what the refused sign-up page showed.

A second client, --branded-client-id, has branding (a dark theme, an accent colour): its sign-in page is checked too.

Usage: flow_pages.py --issuer URL --client-id ID --email E --password P --mail-dir DIR --branded-client-id ID
"""
import json
import secrets

from selenium.webdriver.common.by import By

from sign_in import (CALLBACK_PATH, PageAxe, Callback, account_arguments, authorization_url, click_for_new_page,
                     last_code, mail_count, start_browser, start_callback_server, wait_for_heading, wait_until)

AXE = PageAxe()
CHECKED = []


def check(driver, name):
    """Runs axe-core on the page shown and records its violations under `name`."""
    results = AXE.run(driver)
    CHECKED.append({
        "page": name,
        "url": driver.current_url,
        "passes": len(results.get("passes", [])),
        "violations": [
            {"id": v["id"], "impact": v.get("impact"), "nodes": [n.get("html", "") for n in v.get("nodes", [])][:3]}
            for v in results.get("violations", [])
        ],
    })


def fill(driver, values):
    for element_id, value in values.items():
        field = driver.find_element(By.ID, element_id)
        field.clear()
        field.send_keys(value)


def submit(driver):
    """Submits the page's form with its first submit button, the browser's own validation turned off, and waits for
    the answer."""
    driver.execute_script("document.querySelector('form').noValidate = true")
    click_for_new_page(driver, "button[type=submit]")


def wait_for_redirect(driver, redirect_uri):
    wait_until(driver, lambda d: d.current_url.startswith(redirect_uri))


def main():
    parser = account_arguments()
    parser.add_argument("--branded-client-id", required=True)
    args = parser.parse_args()

    server = start_callback_server()
    redirect_uri = f"http://127.0.0.1:{server.server_address[1]}{CALLBACK_PATH}"
    driver = start_browser()
    refused = {}
    try:
        def authorize(prompt=None, client_id=args.client_id):
            url = authorization_url(args.issuer, client_id, redirect_uri, secrets.token_urlsafe(16))
            driver.get(url + (f"&prompt={prompt}" if prompt else ""))
            wait_for_heading(driver, "Sign in")

        authorize()
        check(driver, "sign-in")
        fill(driver, {"email": args.email, "password": "not the password"})
        submit(driver)
        wait_for_heading(driver, "Sign in")
        check(driver, "sign-in, refused")

        driver.find_element(By.LINK_TEXT, "Create an account").click()
        wait_for_heading(driver, "Create your account")
        check(driver, "sign-up")
        fill(driver, {"email": args.email})
        submit(driver)
        wait_for_heading(driver, "Create your account")
        refused = {
            "heading": driver.find_element(By.TAG_NAME, "h1").text,
            "alert": driver.find_element(By.ID, "form-error").text,
            "terms_error": driver.find_element(By.ID, "terms-error").text,
            "terms_described_by": driver.find_element(By.ID, "terms").get_attribute("aria-describedby"),
            "email_kept": driver.find_element(By.ID, "email").get_attribute("value"),
        }
        check(driver, "sign-up, terms unticked")
        before = mail_count(args.mail_dir)
        driver.find_element(By.ID, "terms").click()
        submit(driver)
        wait_for_heading(driver, "Confirm your email address")
        check(driver, "sign-up: code")
        code = last_code(args.mail_dir, before)
        fill(driver, {"code": "000000" if code != "000000" else "111111", "password": args.password,
                      "password-verify": args.password})
        submit(driver)
        wait_for_heading(driver, "Confirm your email address")
        check(driver, "sign-up: wrong code")
        fill(driver, {"code": code, "password": args.password, "password-verify": args.password})
        submit(driver)
        wait_for_heading(driver, "Allow access?")
        check(driver, "consent")
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        wait_for_redirect(driver, redirect_uri)

        def request_code(link, first, second, name):
            """From a new sign-in page, follows `link` to the page `first`, asks for a code, and lands on `second`."""
            authorize(prompt="login")
            driver.find_element(By.LINK_TEXT, link).click()
            wait_for_heading(driver, first)
            check(driver, f"{name}: email")
            before = mail_count(args.mail_dir)
            fill(driver, {"email": args.email})
            submit(driver)
            wait_for_heading(driver, second)
            check(driver, f"{name}: code")
            return last_code(args.mail_dir, before)

        code = request_code("Forgot your password?", "Reset your password", "Choose a new password", "password reset")
        new_password = args.password + " again"
        fill(driver, {"code": "000000" if code != "000000" else "111111", "password": new_password,
                      "password-verify": new_password})
        submit(driver)
        wait_for_heading(driver, "Choose a new password")
        check(driver, "password reset: wrong code")
        fill(driver, {"code": code, "password": new_password, "password-verify": new_password})
        submit(driver)
        wait_for_redirect(driver, redirect_uri)

        code = request_code("Sign in with a code instead", "Sign in with a code", "Enter your code", "email code")
        fill(driver, {"code": code})
        submit(driver)
        wait_for_redirect(driver, redirect_uri)

        authorize(prompt="login", client_id=args.branded_client_id)
        check(driver, "sign-in, branded")
    finally:
        driver.quit()
        server.shutdown()

    print(json.dumps({"pages": CHECKED, "refused_sign_up": refused, "callbacks": len(Callback.received)}))


if __name__ == "__main__":
    main()
