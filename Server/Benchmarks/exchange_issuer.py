"""A stand-in OpenID provider for the token exchange benchmark (issue 13 §2): an ES256 key published at /jwks and a
discovery document, on 127.0.0.1, and the ID tokens it signed.

Usage: python3 exchange_issuer.py --port PORT --audience AUD --key-file KEY --token-file FILE [--tokens N] [--mint]
Makes the key (PEM, in KEY), writes N ID tokens (1 by default), one a line, to FILE, then serves until killed. With
--mint it signs N new tokens with the key in KEY for the issuer on PORT, writes them to FILE and exits. Each token is
valid an hour, for `sub` bench-user with no address, and has its own `jti`: Limen exchanges a subject token once, so
the benchmark sends each once.
"""
import argparse
import base64
import json
import os
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

KID = "bench-es256"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwk(public_key):
    numbers = public_key.public_numbers()
    return {"kty": "EC", "crv": "P-256", "kid": KID, "use": "sig", "alg": "ES256",
            "x": b64url(numbers.x.to_bytes(32, "big")), "y": b64url(numbers.y.to_bytes(32, "big"))}


def id_token(key, issuer, audience, jti):
    now = int(time.time())
    header = {"alg": "ES256", "typ": "JWT", "kid": KID}
    claims = {"iss": issuer, "sub": "bench-user", "aud": audience, "iat": now, "exp": now + 3600, "jti": jti}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def write_tokens(key, issuer, audience, count, path):
    """Writes `count` new ID tokens, one a line, to `path`: under another name first, then renamed, so that a reader
    waiting for the file never reads half of it."""
    with open(path + ".partial", "w") as file:
        for _ in range(count):
            file.write(id_token(key, issuer, audience, uuid.uuid4().hex) + "\n")
    os.rename(path + ".partial", path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--audience", required=True)
    parser.add_argument("--key-file", required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--tokens", type=int, default=1)
    parser.add_argument("--mint", action="store_true")
    args = parser.parse_args()
    issuer = f"http://127.0.0.1:{args.port}"
    if args.mint:
        with open(args.key_file, "rb") as file:
            key = serialization.load_pem_private_key(file.read(), password=None)
        write_tokens(key, issuer, args.audience, args.tokens, args.token_file)
        return
    key = ec.generate_private_key(ec.SECP256R1())
    with open(args.key_file, "wb") as file:
        file.write(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    documents = {
        "/jwks": {"keys": [jwk(key.public_key())]},
        "/.well-known/openid-configuration": {
            "issuer": issuer, "jwks_uri": issuer + "/jwks", "authorization_endpoint": issuer + "/authorize",
            "token_endpoint": issuer + "/token",
            "response_types_supported": ["code"], "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256"],
        },
    }

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            document = documents.get(self.path)
            body = json.dumps(document).encode() if document is not None else b"{}"
            self.send_response(200 if document is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    write_tokens(key, issuer, args.audience, args.tokens, args.token_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
