"""Plays a person through Limen Server's hosted pages with `requests`: shared by the Authlib peer
(Tests/Peers/authlib/code_flow.py) and the server benchmarks (Server/Benchmarks/flows.py)."""
import sys
from html.parser import HTMLParser
from urllib.parse import urljoin

TIMEOUT = 60  # stops a hung test only: the whole suite runs at once, a loaded machine is slow


class FormParser(HTMLParser):
    """Collects the first form's action and its inputs (hidden values and submit buttons)."""

    def __init__(self):
        super().__init__()
        self.action = None
        self.fields = {}
        self.buttons = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.action is None:
            self.action = attrs.get("action", "")
        elif tag == "input" and attrs.get("name"):
            self.fields.setdefault(attrs["name"], attrs.get("value", ""))
        elif tag == "button" and attrs.get("name"):
            self.buttons.append((attrs["name"], attrs.get("value", "")))


def fail(message):
    """Ends the program with `message` on standard error."""
    print(f"{sys.argv[0]}: {message}", file=sys.stderr)
    sys.exit(1)


def sign_in(browser, url, redirect_uri, email, password):
    """Follows the pages from `url`, signing in and allowing consent, until the provider redirects to redirect_uri;
    returns that URL."""
    response = browser.get(url, allow_redirects=False, timeout=TIMEOUT)
    for _ in range(10):
        if response.status_code in (302, 303):
            location = urljoin(response.url, response.headers["Location"])
            if location.startswith(redirect_uri):
                return location
            response = browser.get(location, allow_redirects=False, timeout=TIMEOUT)
            continue
        if response.status_code != 200 or "text/html" not in response.headers.get("Content-Type", ""):
            fail(f"unexpected answer {response.status_code} from {response.url}: {response.text[:200]}")
        form = FormParser()
        form.feed(response.text)
        if form.action is None:
            fail(f"no form on {response.url}: {response.text[:300]}")
        data = dict(form.fields)
        if "password" in data:
            data.update(email=email, password=password)
        for name, value in form.buttons:
            if value == "allow":
                data[name] = value
        response = browser.post(urljoin(response.url, form.action), data=data, allow_redirects=False,
                                timeout=TIMEOUT)
    fail("too many pages")
