#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) on 127.0.0.1 for Limen's mail tests.

  python3 Tests/Peers/smtp/server.py DIR [--tls none|starttls|implicit] [--auth USER:PASSWORD]

Makes a throw-away CA and a certificate for 127.0.0.1/localhost in DIR (ca.pem), keeps every message it accepts as
DIR/mail/N.eml, writes its port to DIR/port and prints "READY <port>" once it listens. With --auth it refuses mail from an unauthenticated
session; with starttls it refuses AUTH and MAIL before STARTTLS.
"""
import argparse
import datetime
import ipaddress
import os
import signal
import socket
import ssl
import threading
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword, SMTP
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def make_certificates(directory):
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Limen test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (x509.CertificateBuilder()
                   .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
                   .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName([
                       x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
                   .sign(ca_key, hashes.SHA256()))
    paths = {name: os.path.join(directory, name) for name in ("ca.pem", "cert.pem", "key.pem")}
    with open(paths["ca.pem"], "wb") as file:
        file.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths["cert.pem"], "wb") as file:
        file.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(paths["key.pem"], "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(paths["cert.pem"], paths["key.pem"])
    return context


class Keep:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        with open(os.path.join(self.directory, f"{self.count}.eml"), "wb") as file:
            file.write(b"X-Envelope-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n" + envelope.content)
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
