#!/usr/bin/env python3
"""Drives Limen Server's hosted pages in a real headless Chromium (Selenium + chromedriver).

As a user would: the authorization URL of a third-party client shows the sign-in page (saved as a PNG), the
"Create an account" link leads to sign-up, the email is given, the code the server mailed (kept by an SMTP server in
--mail-dir) is entered with a password, the new account is created, the consent page is answered with Allow, and
the browser lands on the client's loopback redirect URI (served by this script) with code, state and iss. Then the
user signs out through /logout, and a new authorization request must show the sign-in page again.

Prints one JSON object with what it saw; exits non-zero on any unexpected page.

Usage: sign_in.py --issuer URL --client-id ID --email E --password P --mail-dir DIR [--name N]
Screenshots go to $LIMEN_ARTIFACTS_DIR (default .build/artifacts).
"""
import argparse
import base64
import email
import email.policy
import hashlib
import json
import os
import re
import secrets
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

from axe_core_python.selenium import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

CHROMEDRIVER = "/usr/bin/chromedriver"
CALLBACK_PATH = "/callback"
TIMEOUT = 30


def fail(message):
    print(f"sign_in: {message}", file=sys.stderr)
    sys.exit(1)


class Callback(BaseHTTPRequestHandler):
    """The client's redirect URI: records the query it was called with and answers a small page."""

    received = []

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == CALLBACK_PATH:
            Callback.received.append(parse_qs(url.query))
        body = b"<!doctype html><title>Client</title><p>Signed in.</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_callback_server():
    server = HTTPServer(("127.0.0.1", 0), Callback)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def authorization_url(issuer, client_id, redirect_uri, state):
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = urlencode({
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
        "scope": "openid profile email", "state": state, "nonce": secrets.token_urlsafe(16),
        "code_challenge": challenge, "code_challenge_method": "S256",
    })
    return f"{issuer}/authorize?{query}"


def start_browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1024,768"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def wait_until(driver, condition):
    """Waits until `condition(driver)` holds, for at most TIMEOUT seconds.

    While the browser is between two pages, chromedriver can answer a read with an error (the old document's element
    went stale, its execution context is gone): those answers are retried, not taken as the condition's answer."""
    return WebDriverWait(driver, TIMEOUT, ignored_exceptions=(WebDriverException,)).until(condition)


def wait_for_heading(driver, text):
    """Waits until the page's h1 reads `text`; fails with the page's heading otherwise."""
    heading_reads = expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "h1"), text)
    try:
        wait_until(driver, heading_reads)
    except TimeoutException:
        headings = [element.text for element in driver.find_elements(By.TAG_NAME, "h1")]
        fail(f"expected the page '{text}', got {headings} at {driver.current_url}")


def account_arguments():
    """A parser of the arguments every browser script takes: the issuer, the client, the account to create, and the
    directory where the SMTP server the server mails to keeps its messages."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--mail-dir", required=True)
    return parser


def mail_count(mail_dir):
    """How many messages the SMTP server kept in `mail_dir`."""
    directory = os.path.join(mail_dir, "mail")
    return len(os.listdir(directory)) if os.path.isdir(directory) else 0


def newest_message(mail_dir, count_before):
    """The newest message, parsed, once more than `count_before` messages were kept."""
    directory = os.path.join(mail_dir, "mail")

    def messages():
        names = os.listdir(directory) if os.path.isdir(directory) else []
        return sorted(names, key=lambda name: int(name.split(".")[0]))

    WebDriverWait(None, TIMEOUT, poll_frequency=0.1).until(lambda _: len(messages()) > count_before)
    with open(os.path.join(directory, messages()[-1]), "rb") as message:
        return email.message_from_binary_file(message, policy=email.policy.default)


def last_code(mail_dir, count_before):
    """The code of the newest message once more than `count_before` messages were kept (it ends the subject)."""
    subject = newest_message(mail_dir, count_before)["Subject"]
    if not subject:
        fail("the message has no subject")
    return subject.strip()[-6:]


def last_link(mail_dir, count_before):
    """The link to the issuer's /flows/link page in the text of the newest message, once more than `count_before`
    messages were kept."""
    text = newest_message(mail_dir, count_before).get_body(preferencelist=("plain",)).get_content()
    match = re.search(r"\S+/flows/link#\S+", text)
    if not match:
        fail(f"no link in the message: {text}")
    return match.group(0)


# The HTML standard's autofill detail tokens end with an optional "webauthn" (a field that also offers passkeys);
# axe-core learnt it in 4.8, and the copy axe-core-python bundles (4.4) calls it invalid. This teaches that copy the
# same rule: the trailing token is set aside, and the rest checked as before.
WEBAUTHN_AUTOCOMPLETE = """
axe.configure({checks: [{id: "autocomplete-valid", evaluate: function (node, options) {
  var value = (node.getAttribute("autocomplete") || "").replace(/\\s+webauthn\\s*$/i, "");
  return axe.commons.text.isValidAutocomplete(value, options);
}}]});
"""


class PageAxe(Axe):
    """axe-core for the hosted pages: as bundled, knowing the trailing "webauthn" autofill token."""

    def run(self, webdriver, context=None, options=None):
        webdriver.execute_script(self.axe_script)
        webdriver.execute_script(WEBAUTHN_AUTOCOMPLETE)
        arguments = self._format_script_args(context, options)
        return webdriver.execute_async_script(
            "var done = arguments[arguments.length - 1]; axe.run(%s).then(results => done(results))" % arguments)


def add_platform_authenticator(driver):
    """Gives the browser a CDP virtual authenticator as a phone or laptop has: CTAP2, built in, resident keys, user
    verification that passes, presence simulated (Selenium's add_virtual_authenticator)."""
    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_verified = True
    options.is_user_consenting = True
    driver.add_virtual_authenticator(options)


def simulate_presence(driver, enabled):
    """Turns the virtual authenticator's automatic presence simulation on or off (CDP's WebAuthn domain). While it is
    off, a sign-in page's conditional (autofill) passkey request stays pending instead of signing in at once."""
    driver.execute_cdp_cmd("WebAuthn.setAutomaticPresenceSimulation",
                           {"authenticatorId": driver.virtual_authenticator_id, "enabled": enabled})


def click_for_new_page(driver, selector):
    """Clicks `selector` and waits for the document it loads: the current one is marked first, so an answer that looks
    the same (the page again, with an error) is told from it."""
    driver.execute_script("document.documentElement.dataset.submitted = 'yes'")
    driver.find_element(By.CSS_SELECTOR, selector).click()
    wait_until(
        driver,
        lambda d: d.execute_script(
            "return document.readyState === 'complete' && !document.documentElement.dataset.submitted"))


def sign_up(driver, args, name=None):
    """From the sign-in page: "Create an account", the email, then the code mailed to it, the name and the password
    twice; the browser is left on the page that follows."""
    driver.find_element(By.LINK_TEXT, "Create an account").click()
    wait_for_heading(driver, "Create your account")
    before = mail_count(args.mail_dir)
    driver.find_element(By.ID, "email").send_keys(args.email)
    click_for_new_page(driver, "button[type=submit]")
    wait_for_heading(driver, "Confirm your email address")
    driver.find_element(By.ID, "code").send_keys(last_code(args.mail_dir, before))
    if name:
        driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(args.password)
    driver.find_element(By.ID, "password-verify").send_keys(args.password)
    click_for_new_page(driver, "button[type=submit]")


def artifact_path(name):
    """Where the screenshot `name` goes: $LIMEN_ARTIFACTS_DIR (default .build/artifacts), created if needed."""
    artifacts = os.environ.get("LIMEN_ARTIFACTS_DIR") or ".build/artifacts"
    os.makedirs(artifacts, exist_ok=True)
    return os.path.abspath(os.path.join(artifacts, name))


def main():
    parser = account_arguments()
    parser.add_argument("--name", default="Grace Hopper")
    args = parser.parse_args()
    screenshot = artifact_path("sign-in.png")

    server = start_callback_server()
    redirect_uri = f"http://127.0.0.1:{server.server_address[1]}{CALLBACK_PATH}"
    state = secrets.token_urlsafe(16)
    driver = start_browser()
    try:
        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, state))
        wait_for_heading(driver, "Sign in")
        if not driver.save_screenshot(screenshot):
            fail("could not save the screenshot")

        sign_up(driver, args, name=args.name)

        wait_for_heading(driver, "Allow access?")
        consent_account = driver.find_element(By.CLASS_NAME, "account").text
        driver.find_element(By.CSS_SELECTOR, "button[value=allow]").click()

        wait_until(driver, lambda d: d.current_url.startswith(redirect_uri))
        landed = parse_qs(urlparse(driver.current_url).query)
        if not Callback.received:
            fail("the client's redirect URI was not called")
        received = Callback.received[-1]

        driver.get(f"{args.issuer}/logout")
        wait_for_heading(driver, "Sign out")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for_heading(driver, "Signed out")
        session_cookie_after_logout = driver.get_cookie("limen_session")

        driver.get(authorization_url(args.issuer, args.client_id, redirect_uri, secrets.token_urlsafe(16)))
        wait_for_heading(driver, "Sign in")
        sign_in_form_after_logout = len(driver.find_elements(By.CSS_SELECTOR, "form[action=login]")) == 1
    finally:
        driver.quit()
        server.shutdown()

    def single(query, name):
        values = query.get(name, [])
        return values[0] if len(values) == 1 else None

    print(json.dumps({
        "browser": "chromium",
        "redirect_uri": redirect_uri,
        "code": single(received, "code"),
        "state": single(received, "state"),
        "sent_state": state,
        "iss": single(received, "iss"),
        "landed_code": single(landed, "code"),
        "consent_account": consent_account,
        "session_cookie_after_logout": session_cookie_after_logout is not None,
        "sign_in_form_after_logout": sign_in_form_after_logout,
        "screenshot": screenshot,
    }))


if __name__ == "__main__":
    main()
