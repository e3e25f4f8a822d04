#!/usr/bin/env python3
"""Passkey sign-ins under load for the Limen Server benchmarks (Server/Benchmarks/run.sh BENCH_ONLY=passkey, issue 23
§7). Not a test.

Registers one ES256 passkey for --email with Tests/Peers/webauthn/passkey_client.py's App and Authenticator (a
password sign-in through `sign-in` for the bearer, then `passkey-register` with it), then runs usernameless sign-ins
with that passkey from --processes processes for --duration seconds, each process one flow after another on a
keep-alive connection of its own (http.client): POST /flows/passkey (PKCE S256, state, nonce) -> the assertion signed with Python's
cryptography -> POST /flows/interactions/ID -> the success node's code -> POST /token (an ID token must come back).
wrk's Lua cannot sign ECDSA, hence Python. The signature counter stays 0, as a synced passkey's does, so the
processes never race on it.

Prints one JSON object: flows, failed, seconds, flows_per_s, p50_ms, p90_ms, p99_ms, max_ms (per flow), and the CPU
the driver's processes and the server (--server-pid) used over the run, in cores (2.0 = both cores of a 2-core
machine) and per flow, in milliseconds: when the driver's share is near the machine's cores less the server's, the
driver is the limit; 1,000 flows/s needs the driver's and the server's milliseconds per flow to add up to at most the
machine's cores (2 ms a flow on 2 cores).

Usage: passkey_flows.py --issuer URL --client-id ID --redirect-uri URI --email E --password P --processes N
                        --duration SECONDS --server-pid PID
"""
import argparse
import hashlib
import http.client
import json
import multiprocessing
import os
import resource
import secrets
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlparse

from flows import TIMEOUT, fail, pkce_pair

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests/Peers/webauthn"))
from passkey_client import App, Authenticator, passkey_options  # noqa: E402
from vectors import b64url  # noqa: E402

USER_PRESENT_AND_VERIFIED = 0x01 | 0x04
# The registered passkey, set before the processes fork (its signing function cannot be pickled).
PASSKEY = None


def register(args):
    """Registers an ES256 passkey for the user, as passkey_client.py does; returns it."""
    app = App(args)
    passkey = Authenticator(-7, "none")
    started = app.start("passkey-register", bearer=app.bearer())
    _, options = passkey_options(started)
    done = app.submit(started["interaction"], "register",
                      {"passkey": passkey.register(options, app.origin), "name": "benchmark"})
    if done["node"] != {"type": "success", "registered": True}:
        fail(f"passkey-register: {done}")
    return passkey, app.origin


def assertion(passkey, challenge, origin):
    """An AuthenticationResponseJSON for `challenge`, counter 0, without py_webauthn's checks (the driver's time)."""
    data = passkey.authenticator_data(USER_PRESENT_AND_VERIFIED)
    client_data = Authenticator.client_data("webauthn.get", challenge, origin)
    credential_id = b64url(passkey.credential_id)
    return {"id": credential_id, "rawId": credential_id, "type": "public-key", "response": {
        "clientDataJSON": b64url(client_data), "authenticatorData": b64url(data),
        "signature": b64url(passkey.sign(data + hashlib.sha256(client_data).digest())),
        "userHandle": b64url(passkey.user_handle)}}


class Connection:
    """One keep-alive connection to the issuer with http.client: `requests` cost the driver almost twice the CPU a
    flow (5.5 against 3.1 ms on a loaded machine), and the driver's CPU is what limits it."""

    def __init__(self, issuer):
        url = urlparse(issuer)
        self.prefix = url.path.rstrip("/")
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=TIMEOUT)

    def post(self, path, form=None, json_body=None):
        """POSTs `form` (URL-encoded) or `json_body`; answers the status and the parsed JSON body (None if not JSON)."""
        if form is not None:
            body, kind = urlencode(form), "application/x-www-form-urlencoded"
        else:
            body, kind = json.dumps(json_body), "application/json"
        self.connection.request("POST", self.prefix + path, body, {"Content-Type": kind})
        response = self.connection.getresponse()
        text = response.read()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text[:200]


def sign_in(connection, args, origin):
    """One passkey sign-in; answers why it failed, or None."""
    verifier, challenge = pkce_pair()
    status, answer = connection.post("/flows/passkey", form={
        "client_id": args.client_id, "redirect_uri": args.redirect_uri, "scope": "openid email offline_access",
        "state": secrets.token_urlsafe(16), "nonce": secrets.token_urlsafe(16), "code_challenge": challenge,
        "code_challenge_method": "S256"})
    if status != 200:
        return f"/flows/passkey answered {status}: {answer}"
    _, options = passkey_options(answer)
    status, submitted = connection.post(f"/flows/interactions/{answer['interaction']}", json_body={
        "node": "passkey", "action": "submit",
        "values": {"passkey": assertion(PASSKEY, options["challenge"], origin)}})
    node = submitted.get("node", {}) if isinstance(submitted, dict) else {}
    if node.get("type") != "success":
        return f"the assertion answered {status}: {str(submitted)[:200]}"
    status, redeemed = connection.post("/token", form={
        "grant_type": "authorization_code", "code": node["code"], "redirect_uri": args.redirect_uri,
        "client_id": args.client_id, "code_verifier": verifier})
    if status != 200 or "id_token" not in redeemed:
        return f"/token answered {status}: {str(redeemed)[:200]}"
    return None


def worker(job):
    """One process's flows until `deadline`: (milliseconds of each completed flow, failures, the first failure)."""
    args, origin, deadline = job
    connection = Connection(args.issuer)
    timings, failures, first_failure = [], 0, None
    while time.time() < deadline:
        start = time.perf_counter()
        failure = sign_in(connection, args, origin)
        if failure:
            failures += 1
            first_failure = first_failure or failure
        else:
            timings.append((time.perf_counter() - start) * 1000)
    return timings, failures, first_failure


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(ordered, fraction):
    return ordered[int(fraction * (len(ordered) - 1))] if ordered else 0.0


def main():
    global PASSKEY
    parser = argparse.ArgumentParser()
    for name in ("issuer", "client-id", "redirect-uri", "email", "password"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--processes", type=int, required=True)
    parser.add_argument("--duration", type=float, required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    args = parser.parse_args()
    PASSKEY, origin = register(args)
    failure = sign_in(Connection(args.issuer), args, origin)  # warm-up, and a check that the flow works at all
    if failure:
        fail(failure)

    pool = multiprocessing.get_context("fork").Pool(args.processes)
    server_before, started = cpu_seconds(args.server_pid), time.perf_counter()
    results = pool.map(worker, [(args, origin, time.time() + args.duration)] * args.processes, chunksize=1)
    seconds, server_cpu = time.perf_counter() - started, cpu_seconds(args.server_pid) - server_before
    pool.close()
    pool.join()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)

    timings = sorted(timing for result in results for timing in result[0])
    failed = sum(result[1] for result in results)
    first_failure = next((result[2] for result in results if result[2]), None)
    if first_failure:
        print(f"passkey_flows.py: {failed} flows failed, the first: {first_failure}", file=sys.stderr)
    driver_cpu = children.ru_utime + children.ru_stime
    per_flow = 1000 / max(1, len(timings) + failed)
    print(json.dumps({
        "flows": len(timings), "failed": failed, "seconds": seconds, "flows_per_s": len(timings) / seconds,
        "p50_ms": percentile(timings, 0.5), "p90_ms": percentile(timings, 0.9), "p99_ms": percentile(timings, 0.99),
        "max_ms": timings[-1] if timings else 0.0, "processes": args.processes,
        "driver_cpu_cores": driver_cpu / seconds, "server_cpu_cores": server_cpu / seconds,
        "driver_cpu_ms_per_flow": driver_cpu * per_flow, "server_cpu_ms_per_flow": server_cpu * per_flow,
        "machine_cores": os.cpu_count()}))


if __name__ == "__main__":
    main()
