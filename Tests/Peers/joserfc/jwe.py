#!/usr/bin/env python3
"""Plays the other JOSE library for the SDK's JWE interoperability tests (Tests/LimenWireTests/JWE).

Reads one JSON request on standard input and writes one JSON answer on standard output:

  {"op": "decrypt-field", "jwk": {...}, "jwe": "..."}          -> {"plaintext": "...", "header": {...}}
  {"op": "encrypt-field", "jwk": {...}, "plaintext": "..."}    -> {"jwe": "...", "kid": "<RFC 7638 thumbprint>"}
  {"op": "import-key", "passphrase": "...", "jwe": "..."}      -> {"jwk": {...}, "header": {...}}
  {"op": "export-key", "passphrase": "...", "jwk": {...}}      -> {"jwe": "..."}

joserfc refuses a PBES2 count (p2c) above 300,000 by default, to bound the work a hostile token can cause; Limen's
exports use 600,000 (the issue's floor), so this script raises joserfc's ceiling to Limen's own (5,000,000).
"""
import json
import sys
import warnings

from joserfc import jwe
from joserfc._rfc7518.jwe_algs import PBES2HSAlgKeyEncryption
from joserfc.errors import SecurityWarning
from joserfc.jwk import OctKey
from joserfc.registry import HeaderParameter

LIMEN_MAX_P2C = 5_000_000

# A passphrase used as an oct key is short by a key's standards; joserfc warns about it, which is expected here.
warnings.filterwarnings("ignore", category=SecurityWarning)


def validate_p2c(value):
    if not isinstance(value, int) or not 1000 <= value <= LIMEN_MAX_P2C:
        raise ValueError(f"must be an int from 1000 to {LIMEN_MAX_P2C}")


PBES2HSAlgKeyEncryption.more_header_registry["p2c"] = HeaderParameter("PBES2 Count", validate_p2c, True)
REGISTRY = jwe.JWERegistry(algorithms=["dir", "A256GCM", "PBES2-HS512+A256KW"])


def main():
    request = json.load(sys.stdin)
    op = request["op"]
    if op == "decrypt-field":
        key = OctKey.import_key(request["jwk"])
        result = jwe.decrypt_compact(request["jwe"], key, registry=REGISTRY)
        answer = {"plaintext": result.plaintext.decode("utf-8"), "header": result.protected}
    elif op == "encrypt-field":
        key = OctKey.import_key(request["jwk"])
        kid = key.thumbprint()
        header = {"alg": "dir", "enc": "A256GCM", "kid": kid}
        answer = {"jwe": jwe.encrypt_compact(header, request["plaintext"].encode("utf-8"), key, registry=REGISTRY),
                  "kid": kid}
    elif op == "import-key":
        passphrase = OctKey.import_key(request["passphrase"].encode("utf-8"))
        result = jwe.decrypt_compact(request["jwe"], passphrase, registry=REGISTRY)
        answer = {"jwk": json.loads(result.plaintext), "header": result.protected}
    elif op == "export-key":
        passphrase = OctKey.import_key(request["passphrase"].encode("utf-8"))
        header = {"alg": "PBES2-HS512+A256KW", "enc": "A256GCM", "p2c": 600_000, "cty": "jwk+json"}
        payload = json.dumps(request["jwk"]).encode("utf-8")
        answer = {"jwe": jwe.encrypt_compact(header, payload, passphrase, registry=REGISTRY)}
    else:
        raise SystemExit(f"unknown op {op!r}")
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
