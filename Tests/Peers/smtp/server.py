#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) on 127.0.0.1 for Limen's mail tests.

  python3 Tests/Peers/smtp/server.py DIR [--tls none|starttls|implicit] [--auth USER:PASSWORD]

Makes a throw-away CA and a certificate for 127.0.0.1/localhost in DIR (ca.pem), keeps every message it accepts as
DIR/mail/N.eml (and prints "KEPT <N>" once it is written), writes its port to DIR/port and prints "READY <port>" once
it listens. With --auth it refuses mail from an unauthenticated
session; with starttls it refuses AUTH and MAIL before STARTTLS.
"""
import argparse
import os
import signal
import socket
import ssl
import threading
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword, SMTP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from test_ca import make_certificates  # noqa: E402


class Keep:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        with open(os.path.join(self.directory, f"{self.count}.eml"), "wb") as file:
            file.write(b"X-Envelope-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n" + envelope.content)
        print(f"KEPT {self.count}", flush=True)
        return "250 kept"


def main():
    # The test process starts peers with most signals blocked, and a blocked SIGTERM would outlive the test.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--tls", choices=["none", "starttls", "implicit"], default="none")
    parser.add_argument("--auth")
    arguments = parser.parse_args()
    mail = os.path.join(arguments.directory, "mail")
    os.makedirs(mail, exist_ok=True)
    context = make_certificates(arguments.directory)

    def authenticator(server, session, envelope, mechanism, data):
        expected = arguments.auth.split(":", 1)
        ok = isinstance(data, LoginPassword) and [data.login.decode(), data.password.decode()] == expected
        return AuthResult(success=ok)

    options = {}
    if arguments.auth:
        # With TLS from the first byte aiosmtpd does not know the session is protected: it must not wait for STARTTLS.
        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=arguments.tls == "starttls")
    if arguments.tls == "starttls":
        options.update(tls_context=context, require_starttls=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Keep(mail), hostname="127.0.0.1", port=port,
                            ssl_context=context if arguments.tls == "implicit" else None,
                            server_hostname="localhost", **options)
    controller.start()
    with open(os.path.join(arguments.directory, "port"), "w") as file:
        file.write(str(port))
    print(f"READY {port}", flush=True)
    try:
        threading.Event().wait()
    finally:
        controller.stop()


if __name__ == "__main__":
    sys.exit(main())
