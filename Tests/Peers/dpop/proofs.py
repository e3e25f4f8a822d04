#!/usr/bin/env python3
"""DPoP proofs (RFC 9449) made and checked with Python's joserfc, the well-kept JOSE library Limen's DPoP code is
compared with (the SDK's Tests/LimenWireTests/DPoP and the server's Server/Tests/LimenServerWireTests/DPoP).

    proofs.py vectors        one JSON document: proofs joserfc made for ES256, EdDSA and RS256 keys, valid and hostile,
                             each with the request it is checked against and the outcome a verifier must reach
                             ("valid", or the code of the refusal)
    proofs.py thumbprints    one JSON document: random EC P-256, RSA and OKP Ed25519 public keys with joserfc's RFC 7638
                             thumbprint of each
    proofs.py verify         reads {"proof", "method", "url", "access_token"?} on standard input, verifies the proof
                             with joserfc against the key in its own header, and prints its header, claims, the key's
                             thumbprint and the ath the access token calls for; exits 1 when joserfc refuses the proof
"""
import base64
import hashlib
import json
import sys
import time
import uuid
import warnings

from joserfc import jws
from joserfc.jwk import ECKey, JWKRegistry, OctKey, OKPKey, RSAKey
from joserfc.registry import HeaderParameter

# joserfc warns that EdDSA is deprecated (RFC 9864) and that a 1,024-bit RSA key is short: both are made on purpose.
warnings.filterwarnings("ignore")

# The request every vector is checked against unless it says otherwise (RFC 9449 §4.1's token request).
METHOD = "POST"
URL = "https://server.example.com/token"
# A resource request with an access token (RFC 9449 §7.1).
RESOURCE_METHOD = "GET"
RESOURCE_URL = "https://resource.example.org/protectedresource"
ACCESS_TOKEN = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
NONCE = "eyJ7S_zG.eyJH0-Z.HX4w-7v"
# The verifier's default window (RFC 9449 §11.1): 10 s ahead, 60 s behind.
FUTURE, PAST = 10, 60


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def ath(token):
    """base64url(SHA-256(ASCII(token))), RFC 9449 §4.2."""
    return b64url(hashlib.sha256(token.encode("ascii")).digest())


def public_jwk(key):
    return key.as_dict(private=False)


def sign(header, claims, key, lenient=False):
    """A compact JWS of claims under header, signed by key with the header's alg; lenient lets joserfc sign a header
    whose jwk is not a JWK."""
    payload = json.dumps(claims, separators=(",", ":")).encode()
    registry = jws.JWSRegistry(
        header_registry={"jwk": HeaderParameter("JSON Web Key", lambda value: None)} if lenient else None,
        algorithms=[header["alg"]])
    return jws.serialize_compact(header, payload, key, registry=registry)


def unsigned(header, claims, signature=b""):
    """A compact JWS assembled by hand: for what joserfc refuses to make (alg none) or a made-up signature."""
    encoded = [b64url(json.dumps(part, separators=(",", ":")).encode()) for part in (header, claims)]
    return ".".join(encoded + [b64url(signature)])


def vectors():
    now = int(time.time())
    keys = {
        "ES256": ECKey.generate_key("P-256"),
        "EdDSA": OKPKey.generate_key("Ed25519"),
        "RS256": RSAKey.generate_key(2048),
    }
    out = []

    def claims(**changes):
        base = {"jti": str(uuid.uuid4()), "htm": METHOD, "htu": URL, "iat": now}
        base.update(changes)
        return {name: value for name, value in base.items() if value is not None}

    def header(alg, key, **changes):
        base = {"typ": "dpop+jwt", "alg": alg, "jwk": public_jwk(key)}
        base.update(changes)
        return {name: value for name, value in base.items() if value is not None}

    def add(name, proof, expected, key=None, method=METHOD, url=URL, access_token=None, nonce=None):
        vector = {"name": name, "proof": proof, "method": method, "url": url, "now": now, "expected": expected}
        if access_token is not None:
            vector["access_token"] = access_token
        if nonce is not None:
            vector["nonce"] = nonce
        if expected == "valid":
            vector["jkt"] = key.thumbprint()
        out.append(vector)

    # Valid proofs, for each algorithm: at the token endpoint, at a resource with ath, and with a server nonce.
    for alg, key in keys.items():
        add(f"{alg} at the token endpoint", sign(header(alg, key), claims(), key), "valid", key)
        add(
            f"{alg} at a resource, with ath",
            sign(header(alg, key), claims(htm=RESOURCE_METHOD, htu=RESOURCE_URL, ath=ath(ACCESS_TOKEN)), key),
            "valid", key, method=RESOURCE_METHOD, url=RESOURCE_URL, access_token=ACCESS_TOKEN)
        add(f"{alg} with the server's nonce", sign(header(alg, key), claims(nonce=NONCE), key), "valid", key,
            nonce=NONCE)

    es, other = keys["ES256"], ECKey.generate_key("P-256")
    es_header = header("ES256", es)
    # The request URL differs from htu only as RFC 3986 syntax-based normalisation allows (RFC 9449 §4.3 step 9).
    add("htu equal after normalisation", sign(es_header, claims(), es), "valid", es,
        url="HTTPS://Server.Example.COM:443/token?x=1#f")
    add("iat at the past edge of the window", sign(es_header, claims(iat=now - PAST), es), "valid", es)
    add("iat at the future edge of the window", sign(es_header, claims(iat=now + FUTURE), es), "valid", es)

    # Not a JWS, or not JSON.
    add("two segments", ".".join(sign(es_header, claims(), es).split(".")[:2]), "dpop.malformed")
    add("a header that is not base64url", "*" + sign(es_header, claims(), es), "dpop.malformed")
    add("claims that are not JSON", ".".join([b64url(json.dumps(es_header).encode()), b64url(b"not json"), "AA"]),
        "dpop.malformed")

    # The header.
    add("typ JWT", sign(header("ES256", es, typ="JWT"), claims(), es), "dpop.wrong_type")
    add("no typ", sign(header("ES256", es, typ=None), claims(), es), "dpop.wrong_type")
    add("alg none", unsigned(header("none", es), claims()), "dpop.algorithm_not_allowed")
    secret = OctKey.generate_key(256)
    add("alg HS256", sign({"typ": "dpop+jwt", "alg": "HS256", "jwk": public_jwk(es)}, claims(), secret),
        "dpop.algorithm_not_allowed")
    add("no alg", unsigned({"typ": "dpop+jwt", "jwk": public_jwk(es)}, claims(), b"\x00" * 64),
        "dpop.algorithm_not_allowed")
    add("no jwk", sign(header("ES256", es, jwk=None), claims(), es), "dpop.key_missing")
    add("jwk that is a string", sign(header("ES256", es, jwk="key"), claims(), es, lenient=True), "dpop.key_missing")
    add("jwk with the EC private key d", sign(header("ES256", es, jwk=es.as_dict(private=True)), claims(), es),
        "dpop.key_has_private_members")
    rsa = keys["RS256"]
    add("jwk with the RSA private members", sign(header("RS256", rsa, jwk=rsa.as_dict(private=True)), claims(), rsa),
        "dpop.key_has_private_members")
    ed = keys["EdDSA"]
    add("jwk with the OKP private key d", sign(header("EdDSA", ed, jwk=ed.as_dict(private=True)), claims(), ed),
        "dpop.key_has_private_members")
    add("an Ed25519 jwk under alg ES256", sign(header("ES256", ed), claims(), es), "dpop.key_unusable")
    weak = RSAKey.generate_key(1024)
    add("RS256 with a 1,024-bit key", sign(header("RS256", weak), claims(), weak), "dpop.key_unusable")

    # The signature.
    add("signed by another key than the jwk", sign(header("ES256", es), claims(), other), "dpop.signature_invalid")
    signed = sign(es_header, claims(), es).split(".")
    tampered = b64url(json.dumps(claims(htm="GET")).encode())
    add("claims changed after signing", ".".join([signed[0], tampered, signed[2]]), "dpop.signature_invalid")

    # The claims.
    add("htm GET for a POST", sign(es_header, claims(htm="GET"), es), "dpop.method_mismatch")
    add("htm post in lower case", sign(es_header, claims(htm="post"), es), "dpop.method_mismatch")
    add("htu of another path", sign(es_header, claims(htu="https://server.example.com/authorize"), es),
        "dpop.target_uri_mismatch")
    add("htu of another host", sign(es_header, claims(htu="https://attacker.example.com/token"), es),
        "dpop.target_uri_mismatch")
    add("htu over http", sign(es_header, claims(htu="http://server.example.com/token"), es),
        "dpop.target_uri_mismatch")
    add("htu on another port", sign(es_header, claims(htu="https://server.example.com:8443/token"), es),
        "dpop.target_uri_mismatch")
    add("iat older than the window", sign(es_header, claims(iat=now - PAST - 1), es), "dpop.issued_at_outside_window")
    add("iat further ahead than the window", sign(es_header, claims(iat=now + FUTURE + 1), es),
        "dpop.issued_at_outside_window")
    add("no htm", sign(es_header, claims(htm=None), es), "dpop.invalid_claim")
    add("no htu", sign(es_header, claims(htu=None), es), "dpop.invalid_claim")
    add("no iat", sign(es_header, claims(iat=None), es), "dpop.invalid_claim")
    add("iat as a string", sign(es_header, claims(iat=str(now)), es), "dpop.invalid_claim")
    add("no jti", sign(es_header, claims(jti=None), es), "dpop.jti_missing")
    add("an empty jti", sign(es_header, claims(jti=""), es), "dpop.jti_missing")
    add("a jti of 129 characters", sign(es_header, claims(jti="j" * 129), es), "dpop.jti_too_long")
    resource = {"method": RESOURCE_METHOD, "url": RESOURCE_URL, "access_token": ACCESS_TOKEN}
    add("no ath at a resource", sign(es_header, claims(htm=RESOURCE_METHOD, htu=RESOURCE_URL), es),
        "dpop.ath_missing", **resource)
    add("ath of another token", sign(es_header, claims(htm=RESOURCE_METHOD, htu=RESOURCE_URL, ath=ath("other")), es),
        "dpop.ath_mismatch", **resource)
    add("no nonce when the server asks for one", sign(es_header, claims(), es), "dpop.nonce_missing", nonce=NONCE)
    add("a stale nonce", sign(es_header, claims(nonce="an-old-nonce"), es), "dpop.nonce_mismatch", nonce=NONCE)
    return {"proofs": out}


def thumbprints():
    keys = [ECKey.generate_key("P-256") for _ in range(4)]
    keys += [RSAKey.generate_key(2048) for _ in range(2)]
    keys += [OKPKey.generate_key("Ed25519") for _ in range(4)]
    return {"keys": [{"jwk": public_jwk(key), "thumbprint": key.thumbprint()} for key in keys]}


def verify(request):
    """Verifies a proof with joserfc against the jwk in its header; its parts, or SystemExit when refused."""
    proof = request["proof"]
    header = jws.extract_compact(proof.encode()).protected
    if header.get("typ") != "dpop+jwt":
        sys.exit(f"typ is {header.get('typ')!r}")
    key = JWKRegistry.import_key(header["jwk"])
    if key.is_private:
        sys.exit("the jwk holds a private key")
    verified = jws.deserialize_compact(proof, key, algorithms=["ES256"])
    answer = {
        "header": verified.protected,
        "claims": json.loads(verified.payload),
        "jkt": key.thumbprint(),
        "htu": request["url"].split("#")[0].split("?")[0],
    }
    if "access_token" in request:
        answer["ath"] = ath(request["access_token"])
    return answer


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "vectors":
        result = vectors()
    elif command == "thumbprints":
        result = thumbprints()
    elif command == "verify":
        result = verify(json.load(sys.stdin))
    else:
        sys.exit(__doc__)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
