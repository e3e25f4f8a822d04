#!/usr/bin/env python3
"""Drives Limen Server's hosted account page in a real headless Chromium (Selenium + chromedriver).

As a user would: signs up through a client's authorization request (the steps of sign_in.py, the code read from
the SMTP server's --mail-dir), then opens /account,
reads that an encrypted field is "encrypted on your device", types a nickname and saves (the page saved as a PNG),
and signs out everywhere; /account then says the browser is not signed in. Then signs in again with the password and
presses "Delete my account" on /account: first with a wrong password (refused on the same page, the account still
there), then with the right one; /account then says the browser is not signed in, and signing in with the same email
and password is refused.

Prints one JSON object with what it saw; exits non-zero on any unexpected page.

Usage: account.py --issuer URL --client-id ID --email E --password P --mail-dir DIR --nickname N
Screenshots go to $LIMEN_ARTIFACTS_DIR (default .build/artifacts).
"""
import json
import secrets

from selenium.webdriver.common.by import By

from sign_in import (CALLBACK_PATH, account_arguments, artifact_path, authorization_url, click_for_new_page, fail,
                     sign_up, start_browser, start_callback_server, wait_for_heading, wait_until)


def sign_in(driver, args):
    """On the sign-in page: the email and password, submitted; the browser is left on the page that follows."""
    driver.find_element(By.ID, "email").send_keys(args.email)
    driver.find_element(By.ID, "password").send_keys(args.password)
    click_for_new_page(driver, "button[type=submit]")


def delete_account(driver, password):
    """On /account: the password typed in the deletion form, and "Delete my account" pressed; the browser is left on
    the page that follows (the same page again when refused, so only the new document is read)."""
    driver.find_element(By.ID, "delete-password").send_keys(password)
    click_for_new_page(driver, "button[value=delete_account]")


def error_text(driver):
    """The page's error summary, or None."""
    errors = driver.find_elements(By.ID, "form-error")
    return errors[0].text if errors else None


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
        wait_until(driver, lambda d: d.current_url.startswith(redirect_uri))

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

        # Signed in again with the password (the consent is remembered), then the account deleted from /account.
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(16)))
        wait_for_heading(driver, "Sign in")
        sign_in(driver, args)
        wait_until(driver, lambda d: d.current_url.startswith(redirect_uri))
        driver.get(f"{args.issuer}/account")
        wait_for_heading(driver, "Your account")
        nickname_after_sign_in = driver.find_element(By.ID, "field-nickname").get_attribute("value")
        delete_account(driver, "not the password")
        wait_for_heading(driver, "Your account")
        refused_deletion = error_text(driver)
        driver.get(f"{args.issuer}/account")
        wait_for_heading(driver, "Your account")
        account_after_refusal = driver.find_element(By.CLASS_NAME, "account").text
        delete_account(driver, args.password)
        wait_for_heading(driver, "Account deleted")
        session_cookie_after_deletion = driver.get_cookie("limen_session") is not None
        driver.get(f"{args.issuer}/account")
        wait_for_heading(driver, "Not signed in")
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(16)))
        wait_for_heading(driver, "Sign in")
        sign_in(driver, args)
        wait_for_heading(driver, "Sign in")
        sign_in_after_deletion = error_text(driver)
    finally:
        driver.quit()
        server.shutdown()

    print(json.dumps({
        "encrypted": encrypted,
        "notice": notice,
        "saved_nickname": saved_nickname,
        "screenshot": screenshot,
        "nickname_after_sign_in": nickname_after_sign_in,
        "refused_deletion": refused_deletion,
        "account_after_refusal": account_after_refusal,
        "session_cookie_after_deletion": session_cookie_after_deletion,
        "sign_in_after_deletion": sign_in_after_deletion,
    }))


if __name__ == "__main__":
    main()
