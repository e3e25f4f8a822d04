#!/usr/bin/env python3
"""A webhook receiver over HTTPS on 127.0.0.1 for Limen's mail tests: it checks each POST's Limen-Signature as a
provider would, independently of Limen's code.

  LIMEN_TEST_WEBHOOK_SECRET=... python3 Tests/Peers/webhook/receiver.py DIR [--fail N] [--status CODE]

Makes a throw-away CA and a certificate for 127.0.0.1/localhost in DIR (ca.pem), writes its port to DIR/port and
prints "READY <port>" once it listens. Each POST is logged as a line of DIR/attempts ("<status>"). The first N POSTs
(every one with --fail -1) are answered CODE (503 by default). Otherwise the signature header must be
"t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + '.' + body)>" with t within five minutes of now: then the body is
kept as DIR/mail/<n>.json (and "KEPT <n>" printed once it is written) and the answer is 200; else 401.
"""
import argparse
import hashlib
import hmac
import http.server
import os
import signal
import ssl
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from test_ca import make_certificates  # noqa: E402

TOLERANCE_SECONDS = 300


def signature_ok(header, body, secret):
    parts = dict(part.split("=", 1) for part in (header or "").split(",") if "=" in part)
    if "t" not in parts or "v1" not in parts or not parts["t"].isdigit():
        return False
    if abs(time.time() - int(parts["t"])) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


def main():
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--fail", type=int, default=0)
    parser.add_argument("--status", type=int, default=503)
    arguments = parser.parse_args()
    secret = os.environ["LIMEN_TEST_WEBHOOK_SECRET"]
    mail = os.path.join(arguments.directory, "mail")
    os.makedirs(mail, exist_ok=True)
    context = make_certificates(arguments.directory)
    lock = threading.Lock()
    state = {"posts": 0, "kept": 0}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                state["posts"] += 1
                if arguments.fail < 0 or state["posts"] <= arguments.fail:
                    status = arguments.status
                elif self.headers.get("Content-Type") != "application/json" or not signature_ok(
                        self.headers.get("Limen-Signature"), body, secret):
                    status = 401
                else:
                    status = 200
                    state["kept"] += 1
                    with open(os.path.join(mail, f"{state['kept']}.json"), "wb") as file:
                        file.write(body)
                    print(f"KEPT {state['kept']}", flush=True)
                with open(os.path.join(arguments.directory, "attempts"), "a") as file:
                    file.write(f"{status}\n")
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()

        def log_message(self, format, *args):
            sys.stderr.write(format % args + "\n")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    with open(os.path.join(arguments.directory, "port"), "w") as file:
        file.write(str(port))
    print(f"READY {port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
