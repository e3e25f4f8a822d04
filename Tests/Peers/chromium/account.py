#!/usr/bin/env python3
"""Drives Limen Server's hosted account page in a real headless Chromium (Selenium + chromedriver).

As a user would: signs up through a client's authorization request (the steps of sign_in.py, the code read from
the SMTP server's --mail-dir), then opens /account,
reads that an encrypted field is "encrypted on your device", types a nickname and saves (the page saved as a PNG),
and signs out everywhere; /account then says the browser is not signed in.

Prints one JSON object with what it saw; exits non-zero on any unexpected page.

Usage: account.py --issuer URL --client-id ID --email E --password P --mail-dir DIR --nickname N
Screenshots go to $LIMEN_ARTIFACTS_DIR (default .build/artifacts).
"""
import json
import secrets

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from sign_in import (
    CALLBACK_PATH, TIMEOUT, account_arguments, artifact_path, authorization_url, click_for_new_page, fail, sign_up,
    start_browser, start_callback_server, wait_for_heading,
)


def main():
    parser = account_arguments()
    parser.add_argument("--nickname", required=True)
    args = parser.parse_args()
    screenshot = artifact_path("account.png")

    server = start_callback_server()
    redirect_uri = f"http://127.0.0.1:{server.server_address[1]}{CALLBACK_PATH}"
    driver = start_browser()
    try:
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(16)))
        wait_for_heading(driver, "Sign in")
        sign_up(driver, args)
        wait_for_heading(driver, "Allow access?")
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.current_url.startswith(redirect_uri))

        driver.get(f"{args.issuer}/account")
        wait_for_heading(driver, "Your account")
        encrypted = [element.text for element in driver.find_elements(By.CLASS_NAME, "encrypted")]
        driver.find_element(By.ID, "field-nickname").send_keys(args.nickname)
        # The answer is the same page again: read only the new document.
        click_for_new_page(driver, "button[value=save]")
        wait_for_heading(driver, "Your account")
        notices = driver.find_elements(By.ID, "form-notice")
        if not notices:
            alerts = [element.text for element in driver.find_elements(By.CLASS_NAME, "error")]
            fail(f"the profile was not saved: {alerts}")
        notice = notices[0].text
        saved_nickname = driver.find_element(By.ID, "field-nickname").get_attribute("value")
        if not driver.save_screenshot(screenshot):
            fail("could not save the screenshot")

        driver.find_element(By.CSS_SELECTOR, "button[value=sign_out_everywhere]").click()
        wait_for_heading(driver, "Signed out everywhere")
        driver.get(f"{args.issuer}/account")
        wait_for_heading(driver, "Not signed in")
    finally:
        driver.quit()
        server.shutdown()

    print(json.dumps({
        "encrypted": encrypted,
        "notice": notice,
        "saved_nickname": saved_nickname,
        "screenshot": screenshot,
    }))


if __name__ == "__main__":
    main()
