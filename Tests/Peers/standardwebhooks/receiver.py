#!/usr/bin/env python3
"""An event-webhook receiver over plain HTTP on 127.0.0.1 for Limen's webhook tests: it verifies each POST with the
Standard Webhooks specification's own library (PyPI `standardwebhooks`), independently of Limen's code.

  python3 Tests/Peers/standardwebhooks/receiver.py DIR [--answers 500,200,400,302,hang]

Writes its port to DIR/port and prints "READY <port>" once it listens. The secret (`whsec_...`) is read from DIR/secret
at each POST, so a test can write it after creating the webhook, and again after rotating it. Each POST takes the next
of --answers: a status code to answer at once without looking at it, `302` with a Location pointing back here (never to
be followed), or `hang` (read the request, never answer). Once the answers are used up, a POST that the library
verifies (signature, and a timestamp within five minutes) is kept as DIR/received/<n>.json ({"id", "payload"}) and
answered 204 (and "KEPT <n>" printed once it is written); any other is answered 401. Every POST is logged as a line of DIR/attempts: "<answer> <webhook-id>".
"""
import argparse
import json
import http.server
import os
import signal
import sys
import threading
import time

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def main():
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--answers", default="")
    arguments = parser.parse_args()
    answers = [answer for answer in arguments.answers.split(",") if answer]
    received = os.path.join(arguments.directory, "received")
    os.makedirs(received, exist_ok=True)
    lock = threading.Lock()
    state = {"posts": 0, "kept": 0}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                index = state["posts"]
                state["posts"] += 1
                answer = answers[index] if index < len(answers) else "verify"
                if answer == "verify":
                    answer = self.verify(body)
                with open(os.path.join(arguments.directory, "attempts"), "a") as file:
                    file.write(f"{answer} {self.headers.get('webhook-id', '-')}\n")
            if answer == "hang":
                time.sleep(3600)
                return
            self.send_response(int(answer))
            if answer == "302":
                self.send_header("Location", f"http://127.0.0.1:{self.server.server_address[1]}/moved")
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()

        def verify(self, body):
            with open(os.path.join(arguments.directory, "secret")) as file:
                secret = file.read().strip()
            headers = {name.lower(): value for name, value in self.headers.items()}
            try:
                payload = Webhook(secret).verify(body, headers)
            except WebhookVerificationError:
                return "401"
            state["kept"] += 1
            with open(os.path.join(received, f"{state['kept']}.json"), "w") as file:
                json.dump({"id": headers["webhook-id"], "payload": payload}, file)
            print(f"KEPT {state['kept']}", flush=True)
            return "204"

        def log_message(self, format, *args):
            sys.stderr.write(format % args + "\n")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    with open(os.path.join(arguments.directory, "port"), "w") as file:
        file.write(str(port))
    print(f"READY {port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
