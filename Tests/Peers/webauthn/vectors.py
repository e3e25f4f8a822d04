#!/usr/bin/env python3
"""WebAuthn and CBOR vectors made with well-kept Python libraries (cbor2, cryptography), for the server's WebAuthn
wire tests (Server/Tests/LimenServerWireTests/WebAuthn).

    vectors.py cbor SEED COUNT   one JSON document: CBOR encodings (random items of WebAuthn's subset, hand-made edge
                                 cases, and mutations of both) with what cbor2 decodes from each
    vectors.py webauthn          one JSON document: registrations (fmt none and packed self attestation) and
                                 assertions for ES256, EdDSA and RS256 credentials, as a browser would send them
    vectors.py corpus DIR        writes seed inputs for the CBOR fuzz harness into DIR
"""
import base64
import collections.abc
import hashlib
import io
import json
import os
import random
import sys

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa


# ---- CBOR: what cbor2 decodes, in a form the Swift test compares with its own reading ----

def describe(value):
    """cbor2's decoded value in the tests' neutral form; {"other": ...} for types outside WebAuthn's subset."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, str):
        return {"text": value}
    if isinstance(value, (list, tuple)):
        return {"array": [describe(item) for item in value]}
    if isinstance(value, collections.abc.Mapping):
        return {"map": [[describe(key), describe(item)] for key, item in value.items()]}
    return {"other": type(value).__name__}


def decode(data):
    """What cbor2 reads from the start of data: {"value", "length"}, or None when it refuses."""
    stream = io.BytesIO(data)
    try:
        value = cbor2.CBORDecoder(stream).decode()
    except Exception:  # cbor2 raises several types (CBORDecodeError, ValueError, …); any is a refusal
        return None
    return {"value": describe(value), "length": stream.tell()}


def random_item(rng, depth=0):
    """A random item of the subset: integers around every encoding boundary, strings, arrays, maps, false/true/null."""
    kinds = ["uint", "nint", "bytes", "text", "simple"] + (["array", "map"] if depth < 4 else [])
    kind = rng.choice(kinds)
    if kind == "uint":
        return rng.choice([0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63, 2**64 - 1,
                           rng.randrange(2**64)])
    if kind == "nint":
        return rng.choice([-1, -24, -25, -256, -257, -65536, -65537, -2**32, -2**32 - 1, -2**63,
                           -rng.randrange(1, 2**63)])
    if kind == "bytes":
        return bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 23, 24, 32, 300])))
    if kind == "text":
        alphabet = "aZ09-_ é€😀\u0000\""
        return "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 5, 24, 40])))
    if kind == "simple":
        return rng.choice([False, True, None])
    if kind == "array":
        return [random_item(rng, depth + 1) for _ in range(rng.choice([0, 1, 3, 24]))]
    result = {}
    for _ in range(rng.choice([0, 1, 3, 5])):
        key = rng.choice([rng.randrange(-30, 30), "k" + str(rng.randrange(100))])
        result[key] = random_item(rng, depth + 1)
    return result


# Hand-made encodings cbor2 reads but its encoder never writes: lengths and integers not in shortest form, keys out of
# canonical order, and items outside the subset (tags, floats, undefined, simple values, indefinite lengths, integers
# below -2**63, duplicate keys, deep nesting).
EDGE_CASES = [
    "1800", "190001", "1a00000001", "1b0000000000000001", "3800", "5800", "5900026162", "7800", "98020102",
    "b8010102", "a203040102", "3b7fffffffffffffff", "3b8000000000000000", "3bffffffffffffffff", "c11a514b67b0",
    "f97c00", "fa47c35000", "fb3ff199999999999a", "f7", "f0", "f818", "5f42010243030405ff", "7f657374726561646d696e67ff",
    "9fff", "bf01020304ff", "ff", "a201020103", "6362c328", "62c328", "81" * 16 + "00", "81" * 17 + "00",
    "1c", "3d", "5e", "fc", "9b0000000100000000", "5b7fffffffffffffff",
]


def mutations(rng, data):
    """A few damaged copies of data: a byte changed, cut short, a byte inserted."""
    result = []
    if data:
        changed = bytearray(data)
        changed[rng.randrange(len(data))] = rng.randrange(256)
        result.append(bytes(changed))
        result.append(data[: rng.randrange(len(data))])
    position = rng.randrange(len(data) + 1)
    result.append(data[:position] + bytes([rng.randrange(256)]) + data[position:])
    return result


def cbor_vectors(seed, count):
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        encoded = cbor2.dumps(random_item(rng))
        cases.append({"hex": encoded.hex(), "inSubset": True, "cbor2": decode(encoded)})
        for damaged in mutations(rng, encoded):
            cases.append({"hex": damaged.hex(), "inSubset": False, "cbor2": decode(damaged)})
    for edge in EDGE_CASES:
        data = bytes.fromhex(edge)
        cases.append({"hex": edge, "inSubset": False, "cbor2": decode(data)})
        for damaged in mutations(rng, data):
            cases.append({"hex": damaged.hex(), "inSubset": False, "cbor2": decode(damaged)})
    return cases


# ---- WebAuthn: registrations and assertions as a browser and an authenticator make them ----

RP_ID = "example.com"
ORIGIN = "https://example.com"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def integer_bytes(value):
    return value.to_bytes((value.bit_length() + 7) // 8, "big")


def make_key(algorithm, rsa_bits=2048):
    """A private key, its COSE_Key map, and a function signing as WebAuthn does with it."""
    if algorithm == -7:
        private = ec.generate_private_key(ec.SECP256R1())
        numbers = private.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        return cose, lambda data: private.sign(data, ec.ECDSA(hashes.SHA256()))
    if algorithm == -8:
        private = ed25519.Ed25519PrivateKey.generate()
        raw = private.public_key().public_bytes_raw()
        return {1: 1, 3: -8, -1: 6, -2: raw}, private.sign
    private = rsa.generate_private_key(public_exponent=65537, key_size=rsa_bits)
    numbers = private.public_key().public_numbers()
    cose = {1: 3, 3: -257, -1: integer_bytes(numbers.n), -2: integer_bytes(numbers.e)}
    return cose, lambda data: private.sign(data, padding.PKCS1v15(), hashes.SHA256())


def client_data(ceremony, challenge):
    return json.dumps(
        {"type": ceremony, "challenge": b64url(challenge), "origin": ORIGIN, "crossOrigin": False},
        separators=(",", ":"),
    ).encode()


def authenticator_data(flags, sign_count, attested=b"", extensions=None):
    data = hashlib.sha256(RP_ID.encode()).digest() + bytes([flags]) + sign_count.to_bytes(4, "big") + attested
    if extensions is not None:
        data += cbor2.dumps(extensions)
    return data


def ceremony(algorithm, fmt, rng):
    cose, sign = make_key(algorithm)
    credential_id = bytes(rng.randrange(256) for _ in range(32))
    aaguid = bytes(16) if fmt == "none" else bytes(range(16))
    attested = aaguid + len(credential_id).to_bytes(2, "big") + credential_id + cbor2.dumps(cose)
    registration_challenge = bytes(rng.randrange(256) for _ in range(32))
    registration_client_data = client_data("webauthn.create", registration_challenge)
    # UP, UV, BE, BS, AT; packed ones also carry an extension output (ED), as credProps-style authenticators do.
    flags = 0x01 | 0x04 | 0x08 | 0x10 | 0x40 | (0x80 if fmt == "packed" else 0)
    extensions = {"credProtect": 2} if fmt == "packed" else None
    registration_data = authenticator_data(flags, 0, attested, extensions)
    statement = {}
    if fmt == "packed":
        signed = registration_data + hashlib.sha256(registration_client_data).digest()
        statement = {"alg": algorithm, "sig": sign(signed)}
    attestation = cbor2.dumps({"fmt": fmt, "attStmt": statement, "authData": registration_data})
    assertion_challenge = bytes(rng.randrange(256) for _ in range(32))
    assertion_client_data = client_data("webauthn.get", assertion_challenge)
    assertion_data = authenticator_data(0x01 | 0x04 | 0x08 | 0x10, 7)
    assertion_signature = sign(assertion_data + hashlib.sha256(assertion_client_data).digest())
    return {
        "algorithm": algorithm,
        "format": fmt,
        "credentialID": credential_id.hex(),
        "credentialPublicKey": cbor2.dumps(cose).hex(),
        "registration": {
            "challenge": registration_challenge.hex(),
            "clientDataJSON": registration_client_data.hex(),
            "attestationObject": attestation.hex(),
        },
        "assertion": {
            "challenge": assertion_challenge.hex(),
            "clientDataJSON": assertion_client_data.hex(),
            "authenticatorData": assertion_data.hex(),
            "signature": assertion_signature.hex(),
        },
    }


def webauthn_vectors():
    rng = random.Random(23)
    ceremonies = [ceremony(algorithm, fmt, rng) for algorithm in (-7, -8, -257) for fmt in ("none", "packed")]
    small_rsa, _ = make_key(-257, rsa_bits=1024)
    return {"rpID": RP_ID, "origin": ORIGIN, "ceremonies": ceremonies, "rsa1024Key": cbor2.dumps(small_rsa).hex()}


def write_corpus(directory):
    vectors = webauthn_vectors()
    os.makedirs(directory, exist_ok=True)
    for index, item in enumerate(vectors["ceremonies"]):
        name = f"{item['format']}-{-item['algorithm']}"
        with open(os.path.join(directory, f"attestation-{name}"), "wb") as file:
            file.write(bytes.fromhex(item["registration"]["attestationObject"]))
        if index % 2 == 0:
            with open(os.path.join(directory, f"assertion-authdata-{name}"), "wb") as file:
                file.write(bytes.fromhex(item["assertion"]["authenticatorData"]))
            with open(os.path.join(directory, f"cose-key-{name}"), "wb") as file:
                file.write(bytes.fromhex(item["credentialPublicKey"]))
    rng = random.Random(8949)
    for index in range(4):
        with open(os.path.join(directory, f"item-{index}"), "wb") as file:
            file.write(cbor2.dumps(random_item(rng)))


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "cbor":
        json.dump(cbor_vectors(int(sys.argv[2]), int(sys.argv[3])), sys.stdout)
    elif mode == "webauthn":
        json.dump(webauthn_vectors(), sys.stdout)
    elif mode == "corpus":
        write_corpus(sys.argv[2])
    else:
        sys.exit(__doc__)
