#!/usr/bin/env python3
"""Uses Limen Server's admin console in a real headless Chromium 390 px wide, as an admin with an authenticator app.

As an admin would: opens /admin (sent to the console, which asks to sign in), signs in on the hosted pages with the
email, the password and a pyotp code, lands on the console; registers a confidential client and reads its secret, shown
once (the clients page opened again does not show it); opens its page from the list, replaces its redirect URIs and
rotates its secret (the new one shown once); opens the keys page and rotates the signing keys; opens the events,
filtered to the client's registration; finds another user by email and disables them, then finds that in the events;
registers a webhook and reads its signing secret, shown once, then opens its page; opens the flows and the profile
schema pages.
Each console page is checked with axe-core and for horizontal scrolling at that width.

Prints one JSON object with what it saw; exits non-zero on any unexpected page.

Usage: admin_console.py --issuer URL --email E --password P --totp-secret BASE32 --disable EMAIL
"""
import argparse
import json
import time

import pyotp
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from sign_in import PageAxe, click_for_new_page, fail, start_browser, wait_for_heading

WIDTH = 390


def page_check(driver):
    """axe-core's results for the current page (how many rules passed, the IDs of those violated) and whether it
    scrolls sideways at the window's width."""
    results = PageAxe().run(driver)
    return {
        "passes": len(results.get("passes", [])),
        "violations": [violation["id"] for violation in results.get("violations", [])],
        "scrolls_sideways": driver.execute_script(
            "return document.documentElement.scrollWidth > document.documentElement.clientWidth"),
    }


def filtered_events(driver, event_type):
    """Opens the events page from the navigation, filters it to `event_type` and returns the entries' texts."""
    click_for_new_page(driver, "nav a[href$='admin/console/events']")
    wait_for_heading(driver, "Security events")
    Select(driver.find_element(By.ID, "filter-type")).select_by_value(event_type)
    click_for_new_page(driver, "form[action$='admin/console/events'] button[type=submit]")
    wait_for_heading(driver, "Security events")
    return [element.text for element in driver.find_elements(By.CSS_SELECTOR, "ol.events li")]


def edit_client(driver, client_id, redirect_uris):
    """Opens the client's page from the clients list, replaces its redirect URIs with `redirect_uris` and saves, then
    rotates its secret; returns what the pages showed (the saved redirect URIs, the notice, the new secret) and their
    checks."""
    click_for_new_page(driver, f"ul.events a[href$='admin/console/client?id={client_id}']")
    wait_for_heading(driver, f"Client {client_id}")
    checks = {"client": page_check(driver)}
    redirects = driver.find_element(By.ID, "client-redirects")
    redirects.clear()
    redirects.send_keys("\n".join(redirect_uris))
    click_for_new_page(driver, "form[action$='admin/console/client/settings'] button[type=submit]")
    wait_for_heading(driver, f"Client {client_id}")
    checks["client_saved"] = page_check(driver)
    saved = {
        "redirect_uris": driver.find_element(By.ID, "client-redirects").get_attribute("value").split("\n"),
        "notice": driver.find_element(By.CSS_SELECTOR, "main > p:not(.account)").text,
    }
    click_for_new_page(driver, "form[action$='admin/console/client/rotate-secret'] button[type=submit]")
    wait_for_heading(driver, f"Client {client_id}")
    checks["client_rotated"] = page_check(driver)
    saved["rotated_secret"] = driver.find_element(By.ID, "client-secret").text
    return saved, checks


def rotate_keys(driver):
    """Opens the keys page from the navigation and rotates the signing keys; returns the key IDs listed before and
    after, and the pages' checks."""
    click_for_new_page(driver, "nav a[href$='admin/console/keys']")
    wait_for_heading(driver, "Signing keys")
    checks = {"keys": page_check(driver)}
    before = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "ul.events li code")]
    click_for_new_page(driver, "form[action$='admin/console/keys/rotate'] button[type=submit]")
    wait_for_heading(driver, "Signing keys")
    checks["keys_rotated"] = page_check(driver)
    after = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "ul.events li code")]
    return {"before": before, "after": after}, checks


def webhook_and_configuration(driver, url):
    """Registers a webhook to `url` for `key.rotated` from the webhooks page, reads its secret (shown once) and opens
    its page from the list; then opens the flows and the profile schema pages from the navigation. Returns what they
    showed (the secret, whether the list showed it again, the flows' names, the schema page's text) and their checks."""
    click_for_new_page(driver, "nav a[href$='admin/console/webhooks']")
    wait_for_heading(driver, "Webhooks")
    checks = {"webhooks": page_check(driver)}
    driver.find_element(By.ID, "webhook-url").send_keys(url)
    driver.find_element(By.ID, "webhook-events").send_keys("key.rotated")
    driver.find_element(By.ID, "webhook-description").send_keys("Key watcher")
    click_for_new_page(driver, "form[action$='admin/console/webhooks'] button[type=submit]")
    wait_for_heading(driver, "Webhooks")
    checks["webhook_created"] = page_check(driver)
    seen = {"secret": driver.find_element(By.ID, "webhook-secret").text}
    click_for_new_page(driver, "ul.events a[href*='admin/console/webhook?id=']")
    seen["secret_shown_again"] = seen["secret"] in driver.page_source
    seen["heading"] = driver.find_element(By.TAG_NAME, "h1").text
    checks["webhook"] = page_check(driver)
    click_for_new_page(driver, "nav a[href$='admin/console/flows']")
    wait_for_heading(driver, "Flows")
    checks["flows"] = page_check(driver)
    seen["flows"] = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "main h2")]
    click_for_new_page(driver, "nav a[href$='admin/console/schema']")
    wait_for_heading(driver, "Profile schema")
    checks["schema"] = page_check(driver)
    seen["schema"] = driver.find_element(By.TAG_NAME, "main").text
    return seen, checks


def main():
    parser = argparse.ArgumentParser()
    for name in ("--issuer", "--email", "--password", "--totp-secret", "--disable"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    driver = start_browser()
    driver.set_window_size(WIDTH, 844)
    try:
        driver.get(f"{args.issuer}/admin")
        wait_for_heading(driver, "Admin console")
        signed_out = page_check(driver)
        click_for_new_page(driver, "a[href$='admin/console/sign-in']")
        wait_for_heading(driver, "Sign in")
        driver.find_element(By.ID, "email").send_keys(args.email)
        driver.find_element(By.ID, "password").send_keys(args.password)
        click_for_new_page(driver, "button[type=submit]")
        wait_for_heading(driver, "Two-step sign-in")
        driver.find_element(By.ID, "totp").send_keys(pyotp.TOTP(args.totp_secret).at(time.time()))
        click_for_new_page(driver, "button[value=submit-totp]")
        wait_for_heading(driver, "Admin console")
        home = page_check(driver)
        signed_in_as = driver.find_element(By.CSS_SELECTOR, "p.account").text

        click_for_new_page(driver, "nav a[href$='admin/console/clients']")
        wait_for_heading(driver, "Clients")
        clients = page_check(driver)
        driver.find_element(By.ID, "client-id").send_keys("billing")
        driver.find_element(By.ID, "client-name").send_keys("Billing")
        Select(driver.find_element(By.ID, "client-kind")).select_by_value("confidential")
        driver.find_element(By.ID, "client-redirects").send_keys("https://billing.example/cb")
        click_for_new_page(driver, "form[action$='admin/console/clients'] button[type=submit]")
        wait_for_heading(driver, "Clients")
        secret = driver.find_element(By.ID, "client-secret").text
        created = page_check(driver)
        click_for_new_page(driver, "nav a[href$='admin/console/clients']")
        wait_for_heading(driver, "Clients")
        secret_shown_again = secret in driver.page_source
        listed = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "ol.events li strong, "
                                                                     "ul.events li strong")]

        edited, edit_checks = edit_client(
            driver, "billing", ["https://billing.example/new", "https://billing.example/other"])
        keys, key_checks = rotate_keys(driver)

        entries = filtered_events(driver, "admin.client_created")
        events = page_check(driver)

        click_for_new_page(driver, "nav a[href$='admin/console/users']")
        wait_for_heading(driver, "Users")
        driver.find_element(By.ID, "user-query").send_keys(args.disable)
        click_for_new_page(driver, "form[action$='admin/console/users'] button[type=submit]")
        wait_for_heading(driver, "Users")
        found = page_check(driver)
        click_for_new_page(driver, "form[action$='admin/console/users/disable'] button[type=submit]")
        wait_for_heading(driver, "Users")
        disabled = page_check(driver)
        state = driver.find_element(By.ID, "user-state").text
        disabled_events = filtered_events(driver, "admin.user_disabled")
        webhook, webhook_checks = webhook_and_configuration(driver, "https://hooks.example/limen")
    except Exception as error:  # noqa: BLE001 - any failure is reported with the page it happened on
        fail(f"{error!r} at {driver.current_url}")
    finally:
        driver.quit()
    print(json.dumps({
        "signed_in_as": signed_in_as, "secret": secret, "secret_shown_again": secret_shown_again,
        "listed": listed, "events": entries, "state": state, "disabled_events": disabled_events,
        "edited": edited, "keys": keys, "webhook": webhook,
        "pages": {"signed_out": signed_out, "home": home, "clients": clients, "created": created, "events": events,
                  "found": found, "disabled": disabled, **edit_checks, **key_checks, **webhook_checks},
    }))


if __name__ == "__main__":
    main()
