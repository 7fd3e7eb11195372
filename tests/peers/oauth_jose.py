"""JOSE for the OAuth test peer (oauth_server.py): DPoP proofs (RFC 9449) and client assertions
(RFC 7523) verified with `cryptography`, RFC 7638 thumbprints."""

from __future__ import annotations

import base64
import contextvars
import hashlib
import json
import secrets
import time
from typing import Any

from oauth_options import OAuthOptions, log


# --- JOSE: DPoP proofs (RFC 9449) and client assertions (RFC 7523) ---------------------------
#
# Verified with `cryptography` (imported on first use, so the peer runs without it unless a
# DPoP proof or a client assertion arrives). Only what this peer accepts: ES256 for DPoP;
# ES256 and RS256 for private_key_jwt.

PROOF_MAX_AGE = 60  # seconds a DPoP proof's iat may be from now (either way)
JTI_KEEP = 300  # seconds a proof's or assertion's jti is remembered against replay
CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

# The thumbprint of the DPoP key that signed the proof of the /token request being handled
# (set by the AS edge, read by TestProvider when it issues or refreshes tokens).
CURRENT_JKT: contextvars.ContextVar[str | None] = contextvars.ContextVar("dpop_jkt", default=None)


class JoseError(Exception):
    """A refused proof or assertion: `code` is the OAuth error, `args[0]` the description."""

    def __init__(self, code: str, description: str):
        super().__init__(description)
        self.code = code
        self.description = description


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwk_thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638: SHA-256 of the required members in lexicographic order, base64url."""
    if jwk.get("kty") == "EC":
        members = {"crv": jwk["crv"], "kty": "EC", "x": jwk["x"], "y": jwk["y"]}
    else:
        members = {"e": jwk["e"], "kty": "RSA", "n": jwk["n"]}
    return b64url(hashlib.sha256(json.dumps(members, separators=(",", ":"), sort_keys=True).encode()).digest())


def _public_key(jwk: dict[str, Any]) -> Any:
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    if "d" in jwk or "p" in jwk:
        raise JoseError("invalid_dpop_proof", "the jwk holds a private key")
    as_int = lambda k: int.from_bytes(b64url_decode(jwk[k]), "big")  # noqa: E731
    try:
        if jwk.get("kty") == "EC" and jwk.get("crv") == "P-256":
            return ec.EllipticCurvePublicNumbers(as_int("x"), as_int("y"), ec.SECP256R1()).public_key()
        if jwk.get("kty") == "RSA":
            return rsa.RSAPublicNumbers(as_int("e"), as_int("n")).public_key()
    except (KeyError, ValueError, TypeError) as e:
        raise JoseError("invalid_dpop_proof", f"unusable jwk: {e}") from None
    raise JoseError("invalid_dpop_proof", "only EC P-256 and RSA keys are accepted")


def verify_jws(compact: str, jwk: dict[str, Any] | None, algs: tuple[str, ...], error: str) -> tuple[dict, dict]:
    """(header, claims) of a compact JWS whose signature `jwk` (default: the header's own
    `jwk`) verifies with one of `algs`; JoseError(error, …) otherwise."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    parts = compact.split(".")
    if len(parts) != 3:
        raise JoseError(error, "not a compact JWS")
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except ValueError:
        raise JoseError(error, "undecodable JWS") from None
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise JoseError(error, "JWS header and claims must be objects")
    alg = header.get("alg")
    if alg not in algs:
        raise JoseError(error, f"alg {alg!r} not accepted (accepted: {', '.join(algs)})")
    key_jwk = jwk if jwk is not None else header.get("jwk")
    if not isinstance(key_jwk, dict):
        raise JoseError(error, "no jwk in the JWS header")
    try:
        key = _public_key(key_jwk)
    except JoseError as e:
        raise JoseError(error, e.description) from None
    signed = f"{parts[0]}.{parts[1]}".encode("ascii")
    try:
        if alg == "ES256":
            if len(signature) != 64 or key_jwk.get("kty") != "EC":
                raise InvalidSignature()
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            key.verify(der, signed, ec.ECDSA(hashes.SHA256()))
        else:  # RS256
            if key_jwk.get("kty") != "RSA":
                raise InvalidSignature()
            key.verify(signature, signed, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        raise JoseError(error, "bad signature") from None
    return header, claims


class DpopVerifier:
    """RFC 9449 proof checks for the AS (/token) and the RS (/mcp), with replay protection,
    optional server nonces (one fixed nonce per server for the run) and counters."""

    def __init__(self, opts: OAuthOptions, counts: dict[str, Any]):
        self.opts = opts
        self.counts = counts
        self.jtis: dict[str, float] = {}
        self.nonces = {"as": secrets.token_urlsafe(16), "rs": secrets.token_urlsafe(16)}

    def verify(self, proofs: list[str], method: str, htu: str, server: str, access_token: str | None = None) -> str:
        """The key thumbprint (jkt) of the one valid proof in `proofs`; JoseError otherwise
        (code invalid_dpop_proof, or use_dpop_nonce when only the nonce is missing/stale)."""
        if len(proofs) != 1:
            raise JoseError("invalid_dpop_proof", f"exactly one DPoP header is required ({len(proofs)} sent)")
        try:
            header, claims = verify_jws(proofs[0], None, ("ES256",), "invalid_dpop_proof")
            if header.get("typ") != "dpop+jwt":
                raise JoseError("invalid_dpop_proof", f"typ must be dpop+jwt, not {header.get('typ')!r}")
            if claims.get("htm") != method:
                raise JoseError("invalid_dpop_proof", f"htm {claims.get('htm')!r} is not {method}")
            if claims.get("htu") != htu:
                raise JoseError("invalid_dpop_proof", f"htu {claims.get('htu')!r} is not {htu}")
            iat = claims.get("iat")
            if not isinstance(iat, (int, float)) or abs(time.time() - iat) > PROOF_MAX_AGE:
                raise JoseError("invalid_dpop_proof", f"iat {iat!r} is not within {PROOF_MAX_AGE} s of now")
            jti = claims.get("jti")
            if not isinstance(jti, str) or not jti:
                raise JoseError("invalid_dpop_proof", "no jti")
            if access_token is not None:
                want = b64url(hashlib.sha256(access_token.encode("ascii")).digest())
                if claims.get("ath") != want:
                    raise JoseError("invalid_dpop_proof", "ath does not match the access token")
            self._fresh_jti(f"{server}:{jti}")
            if self.opts.dpop_nonce and claims.get("nonce") != self.nonces[server]:
                self.counts[f"{server}_nonce_challenges"] += 1
                raise JoseError("use_dpop_nonce", f"{'Authorization' if server == 'as' else 'Resource'} server requires nonce in DPoP proof")
        except JoseError as e:
            if e.code != "use_dpop_nonce":
                self.counts[f"{server}_proofs_rejected"] += 1
                log.info("DPoP proof refused at the %s: %s", server.upper(), e.description)
            raise
        jkt = jwk_thumbprint(header["jwk"])
        self.counts[f"{server}_proofs_verified"] += 1
        return jkt

    def _fresh_jti(self, key: str) -> None:
        now = time.time()
        for k, t in list(self.jtis.items()):
            if now - t > JTI_KEEP:
                del self.jtis[k]
        if key in self.jtis:
            raise JoseError("invalid_dpop_proof", "jti already used")
        self.jtis[key] = now
