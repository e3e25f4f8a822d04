#!/usr/bin/env python3
"""Renders the results of Server/Benchmarks/run.sh (JSON lines) as one Markdown table per run.

Usage: report.py --duration SECONDS --threads N RESULTS.jsonl
Each line: {"run": 1, "target": "SQLite", "measure": "refresh" | "introspect" | "signin" | "native" | "native_load" |
"anonymous" | "anonymous_load" | "exchange" | "phone_load" | "refresh_bearer" | "refresh_dpop" | "passkey_load"
| "profile_read" | "profile_write" | "rss", "data": ...}.
"""
import argparse
import json
from collections import defaultdict

TARGET_ORDER = ["SQLite", "PostgreSQL", "glewlwyd"]
RSS_GROWTH_LIMIT = 0.10  # "flat": the last sample of a run within 10 % of its first


def is_limen(target):
    return target != "glewlwyd"


def errors_note(data):
    problems = []
    if data["non2xx"]:
        problems.append(f"{data['non2xx']:,} non-2xx")
    if data["socket_errors"]:
        problems.append(f"{data['socket_errors']:,} socket errors")
    return f" — **{', '.join(problems)}**" if problems else ""


def throughput(data):
    return (f"{data['rps']:,.0f}/s, p50 {data['p50_ms']:.1f} ms, p99 {data['p99_ms']:.1f} ms "
            f"({data['requests']:,} requests)") + errors_note(data)


def met(flag):
    return "yes" if flag else "**no**"


def row(measure, target, result, goal, verdict):
    return f"| {measure} | {target} | {result} | {goal} | {verdict} |"


def refresh_row(target, data, label):
    if not is_limen(target):
        return row(label, target, throughput(data), "— (reference; no rotation)", "n/a")
    ok = data["rps"] >= 1000 and data["p99_ms"] <= 20 and not data["non2xx"] and not data["socket_errors"]
    return row(label, target, throughput(data), "≥ 1,000/s, p99 ≤ 20 ms", met(ok))


def introspect_row(target, data, label):
    if not is_limen(target):
        return row(label, target, throughput(data), "— (reference)", "n/a")
    ok = data["rps"] >= 10000 and not data["non2xx"] and not data["socket_errors"]
    return row(label, target, throughput(data), "≥ 10,000/s", met(ok))


def signin_row(target, data, label):
    result = f"median {data['median']:.1f} ms (p90 {data['p90']:.1f} ms, max {data['max']:.1f} ms, n = {data['n']})"
    return row(label, target, result, "≤ 15 ms", met(data["median"] <= 15))


def profile_row(goal):
    """A row renderer for a profile measure whose goal on SQLite is `goal` requests per second."""
    def render(target, data, label):
        if target != "SQLite":
            return row(label, target, throughput(data), "—", "n/a")
        ok = data["rps"] >= goal and not data["non2xx"] and not data["socket_errors"]
        return row(label, target, throughput(data), f"≥ {goal:,}/s", met(ok))
    return render


def native_row(target, data, label):
    result = f"median {data['median']:.1f} ms (p90 {data['p90']:.1f} ms, max {data['max']:.1f} ms, n = {data['n']})"
    return row(label, target, result, "≤ 10 ms", met(data["median"] <= 10))


def on_sqlite(target, goal, ok):
    """The goal and whether it was met for a measure whose goal is set on SQLite only: elsewhere there is none."""
    return (f"{goal} on SQLite", met(ok)) if target == "SQLite" else ("—", "n/a")


def native_load_row(target, data, label):
    result = f"{data['flows_per_s']:,.0f} flows/s ({data['flows']:,} completed, {data['failed']:,} failed)"
    ok = data["flows_per_s"] >= 500 and not data["failed"]
    return row(label, target, result, *on_sqlite(target, "≥ 500/s", ok))


def anonymous_row(target, data, label):
    result = f"median {data['median']:.1f} ms (p99 {data['p99']:.1f} ms, max {data['max']:.1f} ms, n = {data['n']})"
    return row(label, target, result, "p99 ≤ 20 ms", met(data["p99"] <= 20))


def anonymous_load_row(target, data, label):
    result = (f"{data['flows_per_s']:,.0f} flows/s ({data['flows']:,} completed, {data['failed']:,} failed; each "
              f"request's p99 {data['request_p99_ms']:.1f} ms, so a flow's ≤ {2 * data['request_p99_ms']:.1f} ms)")
    ok = data["flows_per_s"] >= 1000 and not data["failed"] and 2 * data["request_p99_ms"] <= 20
    return row(label, target, result, *on_sqlite(target, "≥ 1,000/s, p99 ≤ 20 ms", ok))


def phone_load_row(target, data, label):
    result = (f"{data['flows_per_s']:,.0f} flows/s ({data['flows']:,} completed, {data['failed']:,} failed, "
              f"{data['waits']:,} waits for a code not yet logged; each request's p99 {data['request_p99_ms']:.1f} ms)")
    ok = data["flows_per_s"] >= 500 and not data["failed"] and data["request_p99_ms"] <= 20
    return row(label, target, result, *on_sqlite(target, "≥ 500/s, each request's p99 ≤ 20 ms", ok))


def exchange_row(target, data, label):
    ok = data["rps"] >= 1000 and data["p99_ms"] <= 20 and not data["non2xx"] and not data["socket_errors"]
    return row(label, target, throughput(data), *on_sqlite(target, "≥ 1,000/s, p99 ≤ 20 ms", ok))


def bearer_refresh_row(target, data, label):
    return row(label, target, throughput(data), "— (the DPoP row's reference)", "n/a")


def dpop_refresh_row(target, data, label):
    """The DPoP-bound refresh against the bearer refresh of the same run (`bearer_rps`, added by main)."""
    if "bearer_rps" not in data:
        return row(label, target, throughput(data), "≤ 1.5× a bearer refresh's cost", "n/a (no bearer run)")
    cost = data["bearer_rps"] / data["rps"] if data["rps"] else float("inf")
    ok = cost <= 1.5 and not data["non2xx"] and not data["socket_errors"]
    return row(label, target, f"{throughput(data)}; cost {cost:.2f}× the bearer refresh's",
               "≤ 1.5× a bearer refresh's cost", met(ok))


def passkey_load_row(target, data, label):
    result = (f"{data['flows_per_s']:,.0f} flows/s ({data['flows']:,} completed, {data['failed']:,} failed; a flow's "
              f"p50 {data['p50_ms']:.1f} ms, p90 {data['p90_ms']:.1f} ms, p99 {data['p99_ms']:.1f} ms; CPU: driver "
              f"{data['driver_cpu_cores']:.2f}, server {data['server_cpu_cores']:.2f} of {data['machine_cores']} "
              f"cores, {data['driver_cpu_ms_per_flow']:.1f} and {data['server_cpu_ms_per_flow']:.1f} ms a flow)")
    ok = data["flows_per_s"] >= 1000 and not data["failed"] and data["p99_ms"] <= 20
    return row(label, target, result, *on_sqlite(target, "≥ 1,000/s, p99 ≤ 20 ms", ok))


def rss_row(target, samples, label):
    if not samples:
        return row(label, target, "no samples", "≤ 150 MB, flat", "n/a")
    first, last, peak = samples[0] / 1024, samples[-1] / 1024, max(samples) / 1024
    result = f"{first:.0f} → {last:.0f} MB (max {peak:.0f} MB, {len(samples)} samples)"
    if not is_limen(target):
        return row(label, target, result, "— (reference)", "n/a")
    ok = peak <= 150 and last <= first * (1 + RSS_GROWTH_LIMIT)
    return row(label, target, result, "≤ 150 MB, flat", met(ok))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("results")
    args = parser.parse_args()

    runs = defaultdict(dict)
    with open(args.results) as file:
        for line in file:
            entry = json.loads(line)
            runs[entry["run"]][(entry["target"], entry["measure"])] = entry["data"]
    for results in runs.values():
        for (target, measure), data in results.items():
            if measure == "refresh_dpop" and (target, "refresh_bearer") in results:
                data["bearer_rps"] = results[(target, "refresh_bearer")]["rps"]

    wrk = f"wrk, {args.threads} threads × 1 connection, {args.duration} s"
    measures = [
        ("refresh", f"Refresh grant (rotating; {wrk})", refresh_row),
        ("introspect", f"Introspection of an access token ({wrk})", introspect_row),
        ("signin", "Sign-in with a browser session: authorize → code → token (Python `requests`)", signin_row),
        ("profile_read", f"`GET /v1/me/data` ({wrk})", profile_row(10000)),
        ("profile_write", f"`PATCH /v1/me/data`, one field changed each time ({wrk})", profile_row(1500)),
        ("native", "Native sign-in flow: start → submit → token → ID token validated, without the password hash "
         "(Python `requests` + joserfc, one after another)", native_row),
        ("native_load", f"Native sign-in flows: start → submit → token ({wrk}, each connection one flow after "
         "another)", native_load_row),
        ("anonymous", "Anonymous sign-in: start pressing the guest button → code → token → ID token validated, a new "
         "user each time (Python `requests` + joserfc, one after another)", anonymous_row),
        ("anonymous_load", f"Anonymous sign-ins: start → code → token ({wrk}, each connection one after another)",
         anonymous_load_row),
        ("phone_load", f"Phone-code sign-ins: start → number → code → token, a new number each time ({wrk}, each "
         "connection one after another, codes read from the log)", phone_load_row),
        ("exchange", f"Token exchange of an external ES256 ID token, keys cached ({wrk})", exchange_row),
        ("refresh_bearer", f"Refresh grant of a public client, bearer (rotating; {wrk})", bearer_refresh_row),
        ("refresh_dpop", f"Refresh grant of a public client, DPoP-bound: an ES256 proof per request (rotating; {wrk})",
         dpop_refresh_row),
        ("passkey_load", "Passkey sign-ins: start → assertion → code → token, usernameless (Python, "
         f"{args.threads} processes, each one flow after another, {args.duration} s)", passkey_load_row),
        ("rss", "Resident memory (VmRSS, 1/s) during the refresh load", rss_row),
    ]
    for number in sorted(runs):
        results = runs[number]
        print(f"### Run {number}\n")
        print("| Measure | Store / provider | Result | Goal | Met |")
        print("|---|---|---|---|---|")
        for measure, label, render in measures:
            for target in TARGET_ORDER:
                if (target, measure) in results:
                    print(render(target, results[(target, measure)], label))
        print()


if __name__ == "__main__":
    main()
