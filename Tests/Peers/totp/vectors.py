#!/usr/bin/env python3
"""TOTP, otpauth URI and base32 answers from well-kept Python libraries (pyotp, base64), for the server's one-time
password tests (Server/Tests/LimenServerWireTests/OneTimePasswords).

Reads one JSON document on standard input and prints one JSON document, each list answering the input's list of the
same name in order:

    {"totp": [{"secret": HEX, "time": SECONDS, "digits": 6, "period": 30}, ...]}
        -> {"totp": [CODE, ...]}                      pyotp's code for the secret at that time
    {"uris": [{"uri": URI}, ...]}
        -> {"uris": [{"secret", "secretHex", "issuer", "name", "digits", "period", "algorithm"}, ...]}
                                                      what pyotp.parse_uri reads back from each URI (issuer may be null)
    {"provisioning": [{"secret": HEX, "issuer": ISSUER, "name": NAME}, ...]}
        -> {"provisioning": [URI, ...]}               pyotp's provisioning URI (an empty issuer is none)
    {"base32": [HEX, ...]}
        -> {"base32": [TEXT, ...]}                    base64.b32encode of the bytes, with its padding
"""
import base64
import json
import sys

import pyotp


def secret_of(hex_bytes):
    return base64.b32encode(bytes.fromhex(hex_bytes)).decode("ascii")


def code(item):
    return pyotp.TOTP(secret_of(item["secret"]), digits=item["digits"], interval=item["period"]).at(item["time"])


def parsed(item):
    otp = pyotp.parse_uri(item["uri"])
    return {
        "secret": otp.secret,
        "secretHex": otp.byte_secret().hex(),
        "issuer": otp.issuer,
        "name": otp.name,
        "digits": otp.digits,
        "period": otp.interval,
        "algorithm": otp.digest().name,
    }


def provisioning(item):
    issuer = item["issuer"] or None
    return pyotp.TOTP(secret_of(item["secret"])).provisioning_uri(name=item["name"], issuer_name=issuer)


def main():
    request = json.load(sys.stdin)
    answer = {
        "totp": [code(item) for item in request.get("totp", [])],
        "uris": [parsed(item) for item in request.get("uris", [])],
        "provisioning": [provisioning(item) for item in request.get("provisioning", [])],
        "base32": [base64.b32encode(bytes.fromhex(item)).decode("ascii") for item in request.get("base32", [])],
    }
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
