#!/usr/bin/env python3
"""Opens the link of a code's email in a real headless Chromium: Limen Server's /flows/link page, whose one script
posts the fragment's interaction and code to the server.

As a user would: a client's authorization request shows the sign-in page; "Sign in with a code instead" asks for a code
for --email (an existing account), mailed to the SMTP server that keeps it in --mail-dir. The link in that email is
then opened: first in a second browser (a fresh profile), which must say to continue where the code was asked and show
the code, without using it; then with a wrong code in the first browser, refused on the code's page; then as mailed in
the first browser, which continues that sign-in: the consent page, Allow, and the client's redirect URI with a code.
The link page without a fragment, the other browser's page and the refusal are each checked with axe-core.

Prints one JSON object with what it saw; exits non-zero on any unexpected page.

Usage: email_link.py --issuer URL --client-id ID --email E --password P --mail-dir DIR
"""
import json
import secrets
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.common.by import By

from flow_pages import CHECKED, check
from sign_in import (CALLBACK_PATH, Callback, account_arguments, authorization_url, click_for_new_page, last_link,
                     mail_count, start_browser, start_callback_server, wait_for_heading, wait_until)


def open_link(driver, link):
    """Opens `link` (from a blank page: opening it from the link page itself would only change the fragment) and waits
    until the link page's script has posted it and the answer, at /email-link, is loaded."""
    driver.get("about:blank")
    driver.get(link)
    wait_until(
        driver,
        lambda d: urlparse(d.current_url).path.endswith("/email-link")
        and d.execute_script("return document.readyState") == "complete")


def main():
    args = account_arguments().parse_args()
    server = start_callback_server()
    redirect_uri = f"http://127.0.0.1:{server.server_address[1]}{CALLBACK_PATH}"
    driver = start_browser()
    try:
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(16)))
        wait_for_heading(driver, "Sign in")
        driver.find_element(By.LINK_TEXT, "Sign in with a code instead").click()
        wait_for_heading(driver, "Sign in with a code")
        before = mail_count(args.mail_dir)
        driver.find_element(By.ID, "email").send_keys(args.email)
        click_for_new_page(driver, "button[type=submit]")
        wait_for_heading(driver, "Enter your code")
        link = last_link(args.mail_dir, before)
        fragment = parse_qs(urlparse(link).fragment)
        code = fragment["code"][0]

        driver.get(f"{args.issuer}/flows/link")
        wait_for_heading(driver, "Continue with your code")
        wait_until(driver, lambda d: d.find_element(By.ID, "link-incomplete").is_displayed())
        check(driver, "email link: no fragment")

        other = start_browser()
        try:
            open_link(other, link)
            wait_for_heading(other, "Continue where you asked for the code")
            check(other, "email link: another browser")
            elsewhere = {
                "code": other.find_element(By.ID, "link-code").text,
                "url": other.current_url,
                "session_cookie": other.get_cookie("limen_session") is not None,
            }
        finally:
            other.quit()

        wrong = "000000" if code != "000000" else "111111"
        open_link(driver, link.replace(f"code={code}", f"code={wrong}"))
        wait_for_heading(driver, "Enter your code")
        check(driver, "email link: wrong code")
        refused = {"alert": driver.find_element(By.ID, "form-error").text, "url": driver.current_url}

        open_link(driver, link)
        wait_for_heading(driver, "Allow access?")
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        wait_until(driver, lambda d: d.current_url.startswith(redirect_uri))
        landed = parse_qs(urlparse(driver.current_url).query)
    finally:
        driver.quit()
        server.shutdown()

    print(json.dumps({
        "pages": CHECKED,
        "link": link,
        "code": code,
        "elsewhere": elsewhere,
        "refused": refused,
        "landed_code": landed.get("code", [None])[0],
        "callbacks": len(Callback.received),
    }))


if __name__ == "__main__":
    main()
