"""OAuth-protected MCP test peer: a real authorization server and resource server built on
the Python SDK v2 (`mcp` 2.x) auth support, in one process.

Usage:
    python3 oauth_server.py --port RS_PORT --as-port AS_PORT [--auto-approve]
        [--token-ttl SECONDS] [--no-cors] [--as-no-cors] [--hide-www-authenticate]
        [--no-require-scope-write-for-write-note] [--dpop] [--dpop-nonce] [--log-level LEVEL]

Two origins, both bound to 127.0.0.1, served by two uvicorn servers in one asyncio loop
that share one in-memory `TestProvider` (so the resource server verifies the tokens the
authorization server issued by looking them up; no introspection endpoint):

  * Resource server (RS), `http://127.0.0.1:RS_PORT`
      /mcp                                      MCP, both eras on one URL (as python_server.py)
      /.well-known/oauth-protected-resource/mcp RFC 9728 PRM (also at the root form)
    Every /mcp request (POST/GET/DELETE, `initialize` and `server/discover` included) needs
    `Authorization: Bearer <token>` with scope mcp:read, else 401 with
      WWW-Authenticate: Bearer error="invalid_token", error_description="Authentication
        required", resource_metadata="http://127.0.0.1:RS_PORT/.well-known/oauth-protected-resource/mcp",
        scope="mcp:read"
    (the SDK's RequireAuthMiddleware header, with `scope` appended here). `tools/call` of
    `write_note` also needs mcp:write, else 403 with
      WWW-Authenticate: Bearer error="insufficient_scope", scope="mcp:read mcp:write",
        resource_metadata="…", error_description="Required scope: mcp:write"
    Tools: `whoami` (text `client_id=<id> scopes=<granted scopes>`), `write_note(text)`,
    `echo(text)`.

  * Authorization server (AS), issuer exactly `http://127.0.0.1:AS_PORT` (no trailing slash)
      /.well-known/oauth-authorization-server   RFC 8414 metadata
      /register                                 RFC 7591 dynamic registration (SDK handler)
      /authorize                                SDK handler → consent page, or straight back
                                                to the client with --auto-approve
      /consent                                  GET: the consent page; POST: Approve / Deny
      /token                                    SDK handler: authorization_code (PKCE S256),
                                                refresh_token (rotated); this file: client_credentials
                                                for static clients (secret or private_key_jwt)
      /revoke                                   SDK handler (RFC 7009)
      /test/expire-tokens  (POST)               test hook: every access token expires now
      /test/stats          (GET)                test hook: counters (JSON), see TestProvider
      /test/static-client  (POST)               test hook: JSON {client_id, client_secret?, jwk?}
                                                registers a client_credentials client
    The test hooks answer loopback callers only (the server binds 127.0.0.1 anyway).

Scopes: the RS advertises mcp:read and mcp:write; the AS also lists offline_access (so a
SEP-2207 client asks for it). Refresh tokens are issued on every code exchange whether or
not offline_access was asked for, and rotate on every refresh; a used, revoked or unknown
refresh token gets `invalid_grant`. An authorization request without `scope` is granted
mcp:read. A registered client may ask for any scope the AS lists, whatever `scope` it
registered with (the SDK would otherwise refuse a step-up to a scope not registered).

What the SDK does not do and this file adds: `authorization_response_iss_parameter_supported`
and the `iss` callback parameter (RFC 9207, on success and error redirects), "none" in
`token_endpoint_auth_methods_supported` (the SDK's registration accepts public clients but
its metadata lists only the secret methods), a PRM listing both scopes (MCPServer's lists
only `required_scopes`), the `scope` in the 401 challenge, the per-tool 403, and CORS that
allows `Authorization` on the AS (the SDK's own CORS on /token, /register allows only
MCP-Protocol-Version besides the safelisted headers).

DPoP (--dpop, RFC 9449): the AS advertises dpop_signing_alg_values_supported ["ES256"]; a
/token request with a `DPoP` proof (typ dpop+jwt, ES256, signed by its header jwk, htm POST,
htu the token endpoint, iat within 60 s, unused jti) gets token_type DPoP and tokens bound to
the key's RFC 7638 thumbprint (a bound refresh token needs a proof by the same key); a bad
proof is 400 invalid_dpop_proof. The RS takes `Authorization: DPoP <token>` with a proof by
the bound key (htm/htu of the request, ath = base64url(sha256(token)), unused jti), else 401
`WWW-Authenticate: DPoP error="invalid_dpop_proof"|"invalid_token"`; a bound token sent as
Bearer is 401 `DPoP error="invalid_token"`. A request without a proof still gets a Bearer
token. --dpop-nonce: every proof must carry the server's nonce (one per server for the run):
else 400 {"error":"use_dpop_nonce"} at the AS, 401 `DPoP error="use_dpop_nonce"` at the RS,
each with `DPoP-Nonce` (exposed through CORS). Counters: /test/stats "dpop".

`build_oauth_apps()` and `serve_apps()` are also used by the demo server's `--oauth` mode
(demo/server.py), which puts the same AS + RS in front of its own MCPServer.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import contextvars
import hashlib
import html
import json
import logging
import secrets
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, parse_qsl, unquote_plus, urlencode, urlsplit, urlunsplit

import uvicorn
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcp.server import MCPServer
from mcp.server.auth.json_response import PydanticJSONResponse
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware, get_access_token
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    ProviderTokenVerifier,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.routes import build_metadata, build_resource_metadata_url, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken, ProtectedResourceMetadata

from mcp_common import HOST, echo, with_cors

log = logging.getLogger("oauth-peer")

SCOPE_READ = "mcp:read"
SCOPE_WRITE = "mcp:write"
OFFLINE_ACCESS = "offline_access"
RS_SCOPES = [SCOPE_READ, SCOPE_WRITE]
AS_SCOPES = [SCOPE_READ, SCOPE_WRITE, OFFLINE_ACCESS]
DEFAULT_SCOPES = [SCOPE_READ]

CODE_TTL = 300  # seconds an authorization code stays redeemable
CONSENT_TTL = 600  # seconds a consent page stays answerable
RS_EXPOSE = ["WWW-Authenticate", "Mcp-Session-Id", "MCP-Protocol-Version", "DPoP-Nonce"]
LOOPBACK = {"127.0.0.1", "::1", "localhost"}


@dataclass
class OAuthOptions:
    """Everything the AS and RS are configured with."""

    port: int
    as_port: int
    auto_approve: bool = False
    token_ttl: int = 3600
    cors: bool = True
    as_cors: bool = True
    hide_www_authenticate: bool = False
    require_write_for_write_note: bool = True
    write_tools: tuple[str, ...] = ("write_note",)
    resource_name: str = "mcp-wasm-client OAuth test peer"
    dpop: bool = False
    dpop_nonce: bool = False

    @property
    def issuer(self) -> str:
        return f"http://{HOST}:{self.as_port}"

    @property
    def resource(self) -> str:
        return f"http://{HOST}:{self.port}/mcp"

    @property
    def resource_metadata_url(self) -> str:
        return str(build_resource_metadata_url(AnyHttpUrl(self.resource)))


def _same_resource(a: str | None, b: str) -> bool:
    return a is not None and a.rstrip("/") == b.rstrip("/")


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


@dataclass
class StaticClient:
    """A client registered out of band for client_credentials (POST /test/static-client)."""

    client_id: str
    client_secret: str | None = None
    jwk: dict[str, Any] | None = None
    scopes: list[str] = field(default_factory=lambda: list(RS_SCOPES))


# --- the provider: clients, consent requests, codes and tokens, in memory -------------------


@dataclass
class _Pending:
    client: OAuthClientInformationFull
    params: AuthorizationParams
    scopes: list[str]
    created: float = field(default_factory=time.time)


class TestProvider:
    """An `OAuthAuthorizationServerProvider` keeping everything in memory.

    Tokens are opaque random strings (never logged). `stats()` is what GET /test/stats
    returns: counts of registrations, authorization requests, approvals, denials, token
    requests by grant type (counted at /token before the SDK validates anything), tokens
    issued, plus the last authorization and token request's non-secret parameters.
    """

    def __init__(self, opts: OAuthOptions):
        self.opts = opts
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.pending: dict[str, _Pending] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.access_of_refresh: dict[str, str] = {}
        self.counts: dict[str, Any] = {
            "registrations": 0,
            "authorization_requests": 0,
            "approvals": 0,
            "denials": 0,
            "token_requests": {},
            "access_tokens_issued": 0,
            "refresh_tokens_issued": 0,
        }
        # DPoP (--dpop): counters, and the key thumbprint each bound token belongs to.
        self.dpop_counts: dict[str, Any] = {
            k: 0
            for k in (
                "as_proofs_verified", "as_proofs_rejected", "as_nonce_challenges",
                "rs_proofs_verified", "rs_proofs_rejected", "rs_nonce_challenges",
                "bound_tokens_issued", "bearer_use_of_bound_token_refused", "wrong_key_refused",
            )
        }
        self.dpop = DpopVerifier(opts, self.dpop_counts)
        self.jkt_of_access: dict[str, str] = {}
        self.jkt_of_refresh: dict[str, str] = {}
        self.jkts_bound: list[str] = []  # distinct thumbprints tokens were ever bound to, in order
        self.rs_jkts_seen: list[str] = []  # distinct thumbprints of verified RS proofs, in order
        # client_credentials (static clients, secret or private_key_jwt)
        self.static_clients: dict[str, StaticClient] = {}
        self.assertion_jtis: dict[str, float] = {}
        self.cc_counts: dict[str, Any] = {"issued": 0, "refused": 0, "by_auth_method": {}}
        self.last_client_assertion: dict[str, Any] | None = None
        self.last_token_request: dict[str, Any] | None = None
        self.last_authorization_request: dict[str, Any] | None = None

    # registration

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        # Stored with every AS scope, so a later step-up is not refused by the SDK's
        # per-client scope check; the registration response echoes what was asked.
        self.clients[client_info.client_id] = client_info.model_copy(update={"scope": " ".join(AS_SCOPES)})
        self.counts["registrations"] += 1
        log.info(
            "registered client %s (%s, auth %s)",
            client_info.client_id,
            client_info.client_name or "no name",
            client_info.token_endpoint_auth_method,
        )

    # authorization

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        self.counts["authorization_requests"] += 1
        self.last_authorization_request = {
            "client_id": client.client_id,
            "scope": " ".join(params.scopes) if params.scopes is not None else None,
            "resource": params.resource,
            "redirect_uri": str(params.redirect_uri),
            "state_present": params.state is not None,
        }
        if params.resource is not None and not _same_resource(params.resource, self.opts.resource):
            raise AuthorizeError("invalid_target", f"unknown resource; this AS serves {self.opts.resource}")
        scopes = params.scopes or list(DEFAULT_SCOPES)
        if self.opts.auto_approve:
            return self.approve(client, params, scopes)
        request_id = secrets.token_urlsafe(24)
        self.pending[request_id] = _Pending(client, params, scopes)
        return f"{self.opts.issuer}/consent?{urlencode({'request_id': request_id})}"

    def take_pending(self, request_id: str) -> _Pending | None:
        pending = self.pending.pop(request_id, None)
        if pending is None or time.time() - pending.created > CONSENT_TTL:
            return None
        return pending

    def peek_pending(self, request_id: str) -> _Pending | None:
        pending = self.pending.get(request_id)
        if pending is None or time.time() - pending.created > CONSENT_TTL:
            return None
        return pending

    def approve(self, client: OAuthClientInformationFull, params: AuthorizationParams, scopes: list[str]) -> str:
        """Mint a code and return the callback URL carrying code, state and iss."""
        self.counts["approvals"] += 1
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=scopes,
            expires_at=time.time() + CODE_TTL,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=self.opts.resource,  # the only resource this AS serves
            subject="test-user",
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=self.opts.issuer)

    def deny(self, params: AuthorizationParams) -> str:
        self.counts["denials"] += 1
        return construct_redirect_uri(
            str(params.redirect_uri),
            error="access_denied",
            error_description="The user denied the request",
            state=params.state,
            iss=self.opts.issuer,
        )

    # tokens

    async def load_authorization_code(self, client: OAuthClientInformationFull, code: str) -> AuthorizationCode | None:
        found = self.codes.get(code)
        return found if found is not None and found.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)  # single use
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.subject)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        found = self.refresh.get(refresh_token)
        if found is None or found.client_id != client.client_id:
            return None
        bound = self.jkt_of_refresh.get(refresh_token)
        if bound is not None and bound != CURRENT_JKT.get():
            # RFC 9449 §5: a public client's refresh token is bound to its DPoP key too.
            self.dpop_counts["wrong_key_refused"] += 1
            log.info("refresh token bound to another DPoP key (or no proof): invalid_grant")
            return None
        return found

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        # Rotation: the old refresh token and the access token issued with it die now.
        self._forget_refresh(refresh_token.token)
        return self._issue(client.client_id, scopes, refresh_token.subject)

    def _forget_refresh(self, refresh: str) -> None:
        """A refresh token and the access token issued with it die now (rotation, revocation)."""
        self.refresh.pop(refresh, None)
        self.jkt_of_refresh.pop(refresh, None)
        access = self.access_of_refresh.pop(refresh, "")
        self.access.pop(access, None)
        self.jkt_of_access.pop(access, None)

    def _issue(self, client_id: str, scopes: list[str], subject: str | None, with_refresh: bool = True) -> OAuthToken:
        access = secrets.token_urlsafe(32)
        refresh = secrets.token_urlsafe(32)
        expires_at = int(time.time()) + self.opts.token_ttl
        claims = {"iss": self.opts.issuer}
        self.access[access] = AccessToken(
            token=access,
            client_id=client_id,
            scopes=scopes,
            expires_at=expires_at,
            resource=self.opts.resource,
            subject=subject,
            claims=claims,
        )
        self.counts["access_tokens_issued"] += 1
        jkt = CURRENT_JKT.get()
        if jkt is not None:
            self.jkt_of_access[access] = jkt
            self.dpop_counts["bound_tokens_issued"] += 1
            if jkt not in self.jkts_bound:
                self.jkts_bound.append(jkt)
        if with_refresh:
            self.refresh[refresh] = RefreshToken(
                token=refresh, client_id=client_id, scopes=scopes, resource=self.opts.resource, subject=subject
            )
            self.access_of_refresh[refresh] = access
            if jkt is not None:
                self.jkt_of_refresh[refresh] = jkt
            self.counts["refresh_tokens_issued"] += 1
        log.info(
            "issued %s tokens to %s: scope %r, expires in %d s",
            "DPoP-bound" if jkt else "bearer", client_id, " ".join(scopes), self.opts.token_ttl,
        )
        return OAuthToken(
            access_token=access,
            expires_in=self.opts.token_ttl,
            scope=" ".join(scopes),
            refresh_token=refresh if with_refresh else None,
        )

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at is not None and found.expires_at <= time.time()):
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        if isinstance(token, RefreshToken):
            self._forget_refresh(token.token)
        else:
            self.access.pop(token.token, None)
            self.jkt_of_access.pop(token.token, None)
            for r, a in list(self.access_of_refresh.items()):
                if a == token.token:
                    self.refresh.pop(r, None)
                    self.jkt_of_refresh.pop(r, None)
                    del self.access_of_refresh[r]

    async def exchange_identity_assertion(self, client: Any, params: Any) -> OAuthToken:  # pragma: no cover
        from mcp.server.auth.provider import TokenError

        raise TokenError("unsupported_grant_type", "not supported by this test AS")

    # client_credentials (RFC 6749 §4.4) for static clients: client_secret_basic/post, or
    # private_key_jwt (RFC 7523 §2.2) verified against the client's registered public JWK

    def add_static_client(self, client: StaticClient) -> None:
        self.static_clients[client.client_id] = client
        log.info("static client %s (%s)", client.client_id, "private_key_jwt" if client.jwk else "secret")

    def client_credentials(self, form: dict[str, str], headers: dict[bytes, bytes]) -> tuple[int, dict[str, Any]]:
        """(status, JSON body) of a client_credentials token request."""

        def refuse(code: str, description: str, status: int = 400) -> tuple[int, dict[str, Any]]:
            self.cc_counts["refused"] += 1
            log.info("client_credentials refused: %s (%s)", code, description)
            return status, {"error": code, "error_description": description}

        auth = headers.get(b"authorization", b"").decode("latin-1")
        client: StaticClient | None
        if auth.lower().startswith("basic "):
            method = "client_secret_basic"
            try:
                cid, _, secret = base64.b64decode(auth[6:].strip()).decode("utf-8").partition(":")
            except ValueError:
                return refuse("invalid_client", "malformed Basic credentials", 401)
            cid, secret = unquote_plus(cid), unquote_plus(secret)
            client = self.static_clients.get(cid)
            if client is None or client.client_secret is None or not secrets.compare_digest(client.client_secret, secret):
                return refuse("invalid_client", "unknown client or wrong secret", 401)
        elif form.get("client_assertion_type") == CLIENT_ASSERTION_TYPE:
            method = "private_key_jwt"
            assertion = form.get("client_assertion", "")
            try:
                unverified = json.loads(b64url_decode(assertion.split(".")[1]))
            except (ValueError, IndexError):
                return refuse("invalid_client", "client_assertion is not a JWT", 401)
            cid = form.get("client_id") or (unverified.get("iss") if isinstance(unverified, dict) else None) or ""
            client = self.static_clients.get(cid)
            if client is None or client.jwk is None:
                return refuse("invalid_client", f"no key registered for client {cid!r}", 401)
            try:
                header, claims = verify_jws(assertion, client.jwk, ("ES256", "RS256"), "invalid_client")
            except JoseError as e:
                return refuse("invalid_client", f"client_assertion: {e.description}", 401)
            aud = claims.get("aud")
            auds = aud if isinstance(aud, list) else [aud]
            now = time.time()
            exp, jti = claims.get("exp"), claims.get("jti")
            problem = (
                "iss and sub must be the client_id" if claims.get("iss") != cid or claims.get("sub") != cid
                else f"aud must be {self.opts.issuer} or its token endpoint" if not {self.opts.issuer, f"{self.opts.issuer}/token"} & set(map(str, auds))
                else "expired or no exp" if not isinstance(exp, (int, float)) or exp <= now
                else "exp more than 10 minutes away" if exp - now > 600
                else "no jti" if not isinstance(jti, str) or not jti
                else "jti already used" if f"{cid}:{jti}" in self.assertion_jtis
                else None
            )
            if problem:
                return refuse("invalid_client", f"client_assertion: {problem}", 401)
            self.assertion_jtis[f"{cid}:{jti}"] = now
            self.last_client_assertion = {
                "client_id": cid, "alg": header.get("alg"), "aud": aud,
                "lifetime": (exp - claims["iat"]) if isinstance(claims.get("iat"), (int, float)) else None,
            }
        elif "client_secret" in form:
            method = "client_secret_post"
            client = self.static_clients.get(form.get("client_id", ""))
            if client is None or client.client_secret is None or not secrets.compare_digest(client.client_secret, form["client_secret"]):
                return refuse("invalid_client", "unknown client or wrong secret", 401)
        else:
            return refuse("invalid_client", "client authentication is required for client_credentials", 401)
        requested = form.get("scope", "").split() or list(DEFAULT_SCOPES)
        if any(s not in client.scopes for s in requested):
            return refuse("invalid_scope", f"this client may have {' '.join(client.scopes)}")
        if form.get("resource") is not None and not _same_resource(form["resource"], self.opts.resource):
            return refuse("invalid_target", f"unknown resource; this AS serves {self.opts.resource}")
        token = self._issue(client.client_id, requested, client.client_id, with_refresh=False)
        body = token.model_dump(mode="json", exclude_none=True)
        if CURRENT_JKT.get() is not None:
            body["token_type"] = "DPoP"
        self.cc_counts["issued"] += 1
        by = self.cc_counts["by_auth_method"]
        by[method] = by.get(method, 0) + 1
        return 200, body

    # test hooks

    def expire_all(self) -> int:
        past = int(time.time()) - 1
        for token in self.access.values():
            token.expires_at = past
        return len(self.access)

    def count_token_request(self, form: dict[str, str]) -> None:
        grant = form.get("grant_type", "")
        by_grant = self.counts["token_requests"]
        by_grant[grant] = by_grant.get(grant, 0) + 1
        self.last_token_request = {
            "grant_type": grant,
            "resource": form.get("resource"),
            "scope": form.get("scope"),
            "redirect_uri": form.get("redirect_uri"),
            "code_verifier_present": "code_verifier" in form,
            "client_assertion_type": form.get("client_assertion_type"),
        }

    def stats(self) -> dict[str, Any]:
        return {
            **self.counts,
            "token_requests": dict(self.counts["token_requests"]),
            "clients": len(self.clients),
            "live_access_tokens": sum(1 for t in self.access.values() if (t.expires_at or 0) > time.time()),
            "last_authorization_request": self.last_authorization_request,
            "last_token_request": self.last_token_request,
            "dpop": {
                **self.dpop_counts,
                "enabled": self.opts.dpop,
                "nonces": self.opts.dpop_nonce,
                "bound_jkts": list(self.jkts_bound),
                "rs_jkts_seen": list(self.rs_jkts_seen),
            },
            "client_credentials": {**self.cc_counts, "by_auth_method": dict(self.cc_counts["by_auth_method"])},
            "last_client_assertion": self.last_client_assertion,
        }


# --- small ASGI helpers ----------------------------------------------------------------------


async def _read_body(receive: Receive) -> tuple[bytes, list[Message]]:
    """The whole request body and the messages it came in (to replay them)."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    queue = list(messages)

    async def replayed() -> Message:
        return queue.pop(0) if queue else await receive()

    return replayed


async def _json(send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] = (), nonce: str | None = None) -> None:
    data = json.dumps(body).encode()
    out = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()), (b"cache-control", b"no-store")]
    out += list(headers)
    if nonce is not None:
        out.append((b"dpop-nonce", nonce.encode()))
    await send({"type": "http.response.start", "status": status, "headers": out})
    await send({"type": "http.response.body", "body": data})


def _dpop_token_type(send: Send) -> Send:
    """Rewrites a 200 token response's token_type to DPoP (the SDK's OAuthToken only says Bearer)."""
    start: Message | None = None
    chunks: list[bytes] = []

    async def wrapped(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start" and message["status"] == 200:
            start = message
            return
        if start is None or message["type"] != "http.response.body":
            await send(message)
            return
        chunks.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        body = b"".join(chunks)
        try:
            data = json.loads(body)
            data["token_type"] = "DPoP"
            body = json.dumps(data).encode()
        except (ValueError, TypeError):
            pass
        headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
        await send({**start, "headers": headers + [(b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    return wrapped


def _is_loopback(scope: Scope) -> bool:
    client = scope.get("client")
    return bool(client) and client[0] in LOOPBACK


class _StripCors:
    """Drop every Access-Control-* response header (an AS like many hosted IdPs)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [(k, v) for k, v in message["headers"] if not k.lower().startswith(b"access-control-")],
                }
            await send(message)

        await self.app(scope, receive, send_wrapper if scope["type"] == "http" else send)


# --- the authorization server ----------------------------------------------------------------

CONSENT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize {client_name}</title>
<style>body{{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;color:#223}}
.box{{border:1px solid #ccd;border-radius:10px;padding:1.5rem}} button{{font:inherit;padding:.4rem 1.2rem;margin-right:.5rem}}
#approve{{background:#2a6;color:#fff;border:0;border-radius:6px}} code{{background:#eef;padding:0 .2rem}}</style></head>
<body><main class="box" id="consent">
<h1>Authorize <span id="client-name">{client_name}</span></h1>
<p><span id="client-id">{client_id}</span> asks for access to <code id="resource">{resource}</code>
with these scopes:</p>
<ul id="scopes">{scope_items}</ul>
<p>It will be sent back to <code id="redirect-uri">{redirect_uri}</code>.</p>
<form method="post" action="/consent" id="consent-form">
<input type="hidden" name="request_id" value="{request_id}">
<button type="submit" id="approve" name="action" value="approve">Approve</button>
<button type="submit" id="deny" name="action" value="deny">Deny</button>
</form></main></body></html>
"""


def _consent_routes(provider: TestProvider) -> list[Route]:
    def gone() -> HTMLResponse:
        return HTMLResponse(
            "<!doctype html><meta charset=utf-8><title>Expired</title><p id=error>This authorization request "
            "is unknown, expired or already answered.</p>",
            status_code=400,
        )

    async def consent_page(request: Request) -> Response:
        request_id = request.query_params.get("request_id", "")
        pending = provider.peek_pending(request_id)
        if pending is None:
            return gone()
        esc = html.escape
        body = CONSENT_PAGE.format(
            client_name=esc(pending.client.client_name or pending.client.client_id),
            client_id=esc(pending.client.client_id),
            resource=esc(pending.params.resource or provider.opts.resource),
            scope_items="".join(f'<li class="scope" data-scope="{esc(s)}">{esc(s)}</li>' for s in pending.scopes),
            redirect_uri=esc(str(pending.params.redirect_uri)),
            request_id=esc(request_id),
        )
        return HTMLResponse(body, headers={"Cache-Control": "no-store"})

    async def consent_answer(request: Request) -> Response:
        form = await request.form()
        pending = provider.take_pending(str(form.get("request_id", "")))
        if pending is None:
            return gone()
        if form.get("action") == "approve":
            url = provider.approve(pending.client, pending.params, pending.scopes)
        else:
            url = provider.deny(pending.params)
        return RedirectResponse(url, status_code=302, headers={"Cache-Control": "no-store"})

    return [
        Route("/consent", consent_page, methods=["GET"]),
        Route("/consent", consent_answer, methods=["POST"]),
    ]


def _test_routes(provider: TestProvider) -> list[Route]:
    async def expire_tokens(request: Request) -> Response:
        if not _is_loopback(request.scope):
            return JSONResponse({"error": "loopback only"}, status_code=403)
        count = provider.expire_all()
        log.info("test hook: expired %d access token(s)", count)
        return JSONResponse({"expired": count})

    async def stats(request: Request) -> Response:
        if not _is_loopback(request.scope):
            return JSONResponse({"error": "loopback only"}, status_code=403)
        return JSONResponse(provider.stats(), headers={"Cache-Control": "no-store"})

    async def static_client(request: Request) -> Response:
        if not _is_loopback(request.scope):
            return JSONResponse({"error": "loopback only"}, status_code=403)
        try:
            body = await request.json()
            jwk = body.get("jwk") or ((body.get("jwks") or {}).get("keys") or [None])[0]
            if jwk is not None:
                jwk_thumbprint(jwk)  # has the members a public key needs
            client = StaticClient(str(body["client_id"]), body.get("client_secret"), jwk)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            return JSONResponse({"error": f"bad static client: {e}"}, status_code=400)
        provider.add_static_client(client)
        return JSONResponse({"client_id": client.client_id, "jkt": jwk_thumbprint(jwk) if jwk else None})

    return [
        Route("/test/expire-tokens", expire_tokens, methods=["POST"]),
        Route("/test/stats", stats, methods=["GET"]),
        Route("/test/static-client", static_client, methods=["POST"]),
    ]


class _AuthorizationServerEdges:
    """Around the SDK's AS routes: count /token requests by grant type (reading the form
    and replaying it) and add RFC 9207 `iss` to every /authorize redirect back to the
    client that lacks it (the SDK's own error redirects, e.g. invalid_scope)."""

    def __init__(self, app: ASGIApp, provider: TestProvider):
        self.app = app
        self.provider = provider
        self.issuer = provider.opts.issuer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        if path == "/token" and method == "POST":
            body, messages = await _read_body(receive)
            form = dict(parse_qsl(body.decode("utf-8", "replace")))
            self.provider.count_token_request(form)
            await self._token(scope, _replay(messages, receive), send, form)
            return
        if path != "/authorize":
            await self.app(scope, receive, send)
            return

        async def add_iss(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (302, 303):
                headers = []
                for k, v in message["headers"]:
                    if k.lower() == b"location":
                        v = self._with_iss(v.decode("latin-1")).encode("latin-1")
                    headers.append((k, v))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, add_iss)

    async def _token(self, scope: Scope, receive: Receive, send: Send, form: dict[str, str]) -> None:
        """/token: with --dpop, a request carrying a DPoP proof gets it verified (400
        invalid_dpop_proof / use_dpop_nonce + DPoP-Nonce) and its tokens bound to the key
        (token_type DPoP); client_credentials is answered here, the rest by the SDK."""
        provider = self.provider
        proofs = [v.decode("latin-1") for k, v in scope["headers"] if k.lower() == b"dpop"]
        jkt = None
        if provider.opts.dpop and proofs:
            try:
                jkt = provider.dpop.verify(proofs, "POST", f"{self.issuer}/token", "as")
            except JoseError as e:
                nonce = provider.dpop.nonces["as"] if e.code == "use_dpop_nonce" else None
                await _json(send, 400, {"error": e.code, "error_description": e.description}, nonce=nonce)
                return
        reset = CURRENT_JKT.set(jkt)
        try:
            if form.get("grant_type") == "client_credentials":
                status, body = provider.client_credentials(form, dict((k.lower(), v) for k, v in scope["headers"]))
                await _json(send, status, body)
            elif jkt is not None:
                await self.app(scope, receive, _dpop_token_type(send))
            else:
                await self.app(scope, receive, send)
        finally:
            CURRENT_JKT.reset(reset)

    def _with_iss(self, location: str) -> str:
        if location.startswith(self.issuer + "/"):  # our consent page
            return location
        parts = urlsplit(location)
        if "iss" in parse_qs(parts.query):
            return location
        query = parts.query + ("&" if parts.query else "") + urlencode({"iss": self.issuer})
        return urlunsplit(parts._replace(query=query))


def build_authorization_server(provider: TestProvider) -> ASGIApp:
    opts = provider.opts
    issuer = AnyHttpUrl(opts.issuer)
    registration = ClientRegistrationOptions(enabled=True, valid_scopes=AS_SCOPES, default_scopes=DEFAULT_SCOPES)
    revocation = RevocationOptions(enabled=True)
    sdk_routes = create_auth_routes(provider, issuer, None, registration, revocation)  # type: ignore[arg-type]
    metadata = build_metadata(issuer, None, registration, revocation)
    base = metadata.model_dump(mode="json", exclude_none=True)
    metadata_json = OAuthMetadata.model_validate(
        {
            **base,
            "issuer": opts.issuer,  # exact string, no trailing slash
            "scopes_supported": AS_SCOPES,
            "grant_types_supported": [*base.get("grant_types_supported", []), "client_credentials"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_post", "client_secret_basic", "private_key_jwt"],
            "token_endpoint_auth_signing_alg_values_supported": ["ES256", "RS256"],
            "authorization_response_iss_parameter_supported": True,
        }
    ).model_dump(mode="json", exclude_none=True)
    if opts.dpop:
        metadata_json["dpop_signing_alg_values_supported"] = ["ES256"]

    async def as_metadata(request: Request) -> Response:
        return JSONResponse(metadata_json, headers={"Cache-Control": "no-store"})

    routes = [Route("/.well-known/oauth-authorization-server", as_metadata, methods=["GET"])]
    routes += [r for r in sdk_routes if r.path != "/.well-known/oauth-authorization-server"]
    routes += _consent_routes(provider) + _test_routes(provider)
    app: ASGIApp = _AuthorizationServerEdges(Starlette(routes=routes), provider)
    if opts.cors and opts.as_cors:
        app = CORSMiddleware(
            app,
            allow_origins=["*"],
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["*"],
            expose_headers=["DPoP-Nonce"],
            max_age=600,
        )
    else:
        app = _StripCors(app)
    return app


# --- the resource server ---------------------------------------------------------------------


class ProtectedResource:
    """The MCP app behind the SDK's bearer-token middleware, plus PRM and per-tool scopes.

    /mcp goes through `AuthenticationMiddleware(BearerAuthBackend)` →
    `AuthContextMiddleware` → `RequireAuthMiddleware([mcp:read])`, the chain MCPServer
    builds for `auth=AuthSettings(...)`, composed by hand so that any existing MCPServer
    app (the demo's) can be wrapped unchanged. The token verifier is the shared provider;
    tokens are bound to the resource URL (`BearerAuthBackend(resource_server_url=...)`).
    Other paths go to `inner` untouched; lifespan scopes too, so the session manager runs.
    """

    def __init__(self, inner: ASGIApp, provider: TestProvider):
        self.inner = inner
        self.provider = provider
        opts = provider.opts
        self.opts = opts
        self.prm_url = opts.resource_metadata_url
        self.prm = ProtectedResourceMetadata.model_validate(
            {
                "resource": opts.resource,
                "authorization_servers": [opts.issuer],
                "scopes_supported": RS_SCOPES,
                "resource_name": opts.resource_name,
            }
        )
        self.prm_paths = {urlsplit(self.prm_url).path, "/.well-known/oauth-protected-resource"}
        self.guarded = AuthenticationMiddleware(
            AuthContextMiddleware(RequireAuthMiddleware(inner, [SCOPE_READ], AnyHttpUrl(self.prm_url))),
            backend=BearerAuthBackend(ProviderTokenVerifier(provider), resource_server_url=AnyHttpUrl(opts.resource)),  # type: ignore[arg-type]
        )
        self.challenge_scope = f', scope="{SCOPE_READ}"'.encode()
        self.dpop_challenge = b', DPoP algs="ES256"' if opts.dpop else b""

    async def _dpop(self, scope: Scope, send: Send) -> Scope | None:
        """--dpop: `Authorization: DPoP <token>` needs one valid proof (htm, htu, ath, fresh
        jti, the RS nonce with --dpop-nonce) by the key the token is bound to; it then goes
        on as `Bearer <token>` to the SDK's chain. A DPoP-bound token sent as Bearer is
        refused. None when this answered the request (401)."""
        p = self.provider
        headers = scope["headers"]
        auth = next((v.decode("latin-1") for k, v in headers if k.lower() == b"authorization"), "")
        scheme, _, token = auth.partition(" ")
        token = token.strip()
        if scheme.lower() == "dpop" and token:
            proofs = [v.decode("latin-1") for k, v in headers if k.lower() == b"dpop"]
            host = next((v.decode("latin-1") for k, v in headers if k.lower() == b"host"), f"{HOST}:{self.opts.port}")
            htu = f"{scope.get('scheme', 'http')}://{host}{scope['path']}"
            try:
                jkt = p.dpop.verify(proofs, scope["method"], htu, "rs", access_token=token)
            except JoseError as e:
                nonce = p.dpop.nonces["rs"] if e.code == "use_dpop_nonce" else None
                await self._dpop_refusal(send, e.code, e.description, nonce)
                return None
            if jkt not in p.rs_jkts_seen:
                p.rs_jkts_seen.append(jkt)
            if token in p.access and p.jkt_of_access.get(token) != jkt:
                p.dpop_counts["wrong_key_refused"] += 1
                await self._dpop_refusal(send, "invalid_token", "The access token is not bound to the key of this DPoP proof")
                return None
            rest = [(k, v) for k, v in headers if k.lower() != b"authorization"]
            return {**scope, "headers": rest + [(b"authorization", f"Bearer {token}".encode("latin-1"))]}
        if scheme.lower() == "bearer" and token in p.jkt_of_access:
            p.dpop_counts["bearer_use_of_bound_token_refused"] += 1
            await self._dpop_refusal(send, "invalid_token", "A DPoP-bound access token must be sent as Authorization: DPoP with a proof")
            return None
        return scope

    async def _dpop_refusal(self, send: Send, error: str, description: str, nonce: str | None = None) -> None:
        challenge = (
            f'DPoP error="{error}", error_description="{description}", algs="ES256", '
            f'resource_metadata="{self.prm_url}", scope="{SCOPE_READ}"'
        )
        await _json(send, 401, {"error": error, "error_description": description},
                    headers=[(b"www-authenticate", challenge.encode())], nonce=nonce)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        path = scope["path"]
        if path in self.prm_paths:
            if scope["method"] not in ("GET", "HEAD"):
                await Response("Method Not Allowed", 405, headers={"Allow": "GET"})(scope, receive, send)
                return
            response = PydanticJSONResponse(content=self.prm, headers={"Cache-Control": "no-store"})
            await response(scope, receive, send)
            return
        if path.rstrip("/") != "/mcp":
            await self.inner(scope, receive, send)
            return
        if self.opts.dpop:
            checked = await self._dpop(scope, send)
            if checked is None:
                return
            scope = checked
        if scope["method"] == "POST" and self.opts.require_write_for_write_note:
            body, messages = await _read_body(receive)
            receive = _replay(messages, receive)
            if await self._lacks_write_scope(scope, body):
                await self._insufficient_scope(send)
                return

        async def with_scope(message: Message) -> None:
            # The SDK's 401 challenge names resource_metadata but no scope; add it (and with
            # --dpop a second challenge, RFC 9449 §7.1: `DPoP algs="ES256"`).
            if message["type"] == "http.response.start" and message["status"] == 401:
                headers = [
                    (k, v + self.challenge_scope + self.dpop_challenge if k.lower() == b"www-authenticate" and b"scope=" not in v else v)
                    for k, v in message["headers"]
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.guarded(scope, receive, with_scope)

    async def _lacks_write_scope(self, scope: Scope, body: bytes) -> bool:
        """A valid token (else the chain answers 401) calling a write tool without mcp:write."""
        try:
            parsed = json.loads(body)
        except ValueError:
            return False
        messages = parsed if isinstance(parsed, list) else [parsed]
        calls_write = any(
            isinstance(m, dict)
            and m.get("method") == "tools/call"
            and isinstance(m.get("params"), dict)
            and m["params"].get("name") in self.opts.write_tools
            for m in messages
        )
        if not calls_write:
            return False
        auth = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        if not auth.lower().startswith("bearer "):
            return False
        token = await self.provider.load_access_token(auth[7:])
        if token is None or not _same_resource(token.resource, self.opts.resource):
            return False
        return SCOPE_WRITE not in token.scopes

    async def _insufficient_scope(self, send: Send) -> None:
        challenge = (
            f'Bearer error="insufficient_scope", scope="{SCOPE_READ} {SCOPE_WRITE}", '
            f'resource_metadata="{self.prm_url}", error_description="Required scope: {SCOPE_WRITE}"'
        )
        body = json.dumps({"error": "insufficient_scope", "error_description": f"Required scope: {SCOPE_WRITE}"})
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", challenge.encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


def rs_cors(app: ASGIApp, opts: OAuthOptions) -> ASGIApp:
    """The RS's CORS: any origin, any requested header (Authorization, Mcp-*, Last-Event-ID),
    WWW-Authenticate exposed unless --hide-www-authenticate; none at all with --no-cors."""
    if not opts.cors:
        return app
    expose = [h for h in RS_EXPOSE if not (opts.hide_www_authenticate and h == "WWW-Authenticate")]
    return with_cors(app, expose_headers=expose)


def build_oauth_apps(mcp: MCPServer, opts: OAuthOptions) -> tuple[ASGIApp, ASGIApp, TestProvider]:
    """(resource server app, authorization server app, provider) for `mcp`; the RS app
    already has its CORS. The MCP app is `mcp.streamable_http_app` at /mcp with the SDK's
    DNS-rebinding guard for 127.0.0.1 (see mcp_common.streamable_http_app)."""
    provider = TestProvider(opts)
    inner = mcp.streamable_http_app(streamable_http_path="/mcp", host=HOST)
    rs = rs_cors(ProtectedResource(inner, provider), opts)
    return rs, build_authorization_server(provider), provider


# --- running both servers --------------------------------------------------------------------


class _Server(uvicorn.Server):
    """A uvicorn server that leaves signal handling to `serve_apps` (two servers share a loop)."""

    @contextlib.contextmanager
    def capture_signals(self):  # type: ignore[override]
        yield


async def serve_apps(apps: list[tuple[str, ASGIApp, int]], log_level: str = "warning", on_ready=None) -> None:
    """Serve each (name, app, port) on 127.0.0.1, in order (each one listens before the
    next starts, so the last one answering means all are up); SIGTERM/SIGINT stop all."""
    servers = [
        _Server(uvicorn.Config(app, host=HOST, port=port, log_level=log_level, access_log=False, lifespan="auto"))
        for _, app, port in apps
    ]
    loop = asyncio.get_running_loop()

    def stop() -> None:
        for s in servers:
            s.should_exit = True

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    tasks = []
    for server in servers:
        task = asyncio.ensure_future(server.serve())
        tasks.append(task)
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if task.done():  # failed to start (port in use, …)
            stop()
            await asyncio.gather(*tasks, return_exceptions=True)
            task.result()
            raise SystemExit(1)
    if on_ready:
        on_ready()
    await asyncio.gather(*tasks)


# --- the test peer's MCP server --------------------------------------------------------------


def add_oauth_tools(mcp: MCPServer) -> None:
    """Register `whoami` and `write_note` (the tool the RS guards with mcp:write) on `mcp`."""
    notes: list[str] = []

    @mcp.tool()
    def whoami() -> str:
        """The OAuth client and scopes of the bearer token this request carried."""
        token = get_access_token()
        if token is None:  # cannot happen behind RequireAuthMiddleware
            return "client_id=? scopes="
        return f"client_id={token.client_id} scopes={' '.join(token.scopes)}"

    @mcp.tool()
    def write_note(text: str) -> str:
        """Store a note (needs scope mcp:write: without it the RS answers HTTP 403 insufficient_scope)."""
        notes.append(text)
        return f"noted #{len(notes)}: {text}"


def peer_mcp() -> MCPServer:
    mcp = MCPServer(
        name="oauth-peer",
        version="1.0.0",
        instructions="OAuth-protected test peer for the Rust/WASM MCP client (dual-era).",
    )
    add_oauth_tools(mcp)
    mcp.tool()(echo)
    return mcp


def parse_args(argv: list[str] | None = None) -> tuple[OAuthOptions, str]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--port", type=int, default=18106, help="resource server port (MCP at /mcp); default 18106")
    p.add_argument("--as-port", type=int, default=18107, help="authorization server port; default 18107")
    p.add_argument("--auto-approve", action="store_true", help="/authorize redirects straight back with a code")
    p.add_argument("--token-ttl", type=int, default=3600, help="access token lifetime in seconds; default 3600")
    p.add_argument("--cors", action=argparse.BooleanOptionalAction, default=True, help="CORS on RS and AS (default on)")
    p.add_argument("--as-no-cors", action="store_true", help="the AS sends no CORS headers at all")
    p.add_argument("--hide-www-authenticate", action="store_true", help="RS CORS does not expose WWW-Authenticate")
    p.add_argument(
        "--require-scope-write-for-write-note",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="write_note needs mcp:write, else 403 insufficient_scope (default on)",
    )
    p.add_argument("--dpop", action="store_true", help="DPoP (RFC 9449): bind tokens requested with a proof; the RS checks proofs")
    p.add_argument("--dpop-nonce", action="store_true", help="with --dpop: AS and RS demand their server nonce (use_dpop_nonce)")
    p.add_argument("--log-level", default="info", help="oauth-peer log level (uvicorn logs warnings only)")
    a = p.parse_args(argv)
    opts = OAuthOptions(
        port=a.port,
        as_port=a.as_port,
        auto_approve=a.auto_approve,
        token_ttl=a.token_ttl,
        cors=a.cors,
        as_cors=not a.as_no_cors,
        hide_www_authenticate=a.hide_www_authenticate,
        require_write_for_write_note=a.require_scope_write_for_write_note,
        dpop=a.dpop or a.dpop_nonce,
        dpop_nonce=a.dpop_nonce,
    )
    return opts, a.log_level


def print_urls(opts: OAuthOptions, who: str) -> None:
    print(f"{who}: MCP (resource server) {opts.resource}", flush=True)
    print(f"{who}: PRM {opts.resource_metadata_url}", flush=True)
    print(f"{who}: authorization server {opts.issuer} (metadata {opts.issuer}/.well-known/oauth-authorization-server)", flush=True)


def main() -> None:
    opts, level = parse_args()
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(name)s %(message)s", stream=sys.stderr)
    rs, as_app, _ = build_oauth_apps(peer_mcp(), opts)

    def ready() -> None:
        print_urls(opts, "oauth peer")
        print(
            f"oauth peer: auto-approve={opts.auto_approve} token-ttl={opts.token_ttl}s cors={opts.cors} "
            f"as-cors={opts.cors and opts.as_cors} hide-www-authenticate={opts.hide_www_authenticate} "
            f"write_note-needs-mcp:write={opts.require_write_for_write_note} dpop={opts.dpop} dpop-nonce={opts.dpop_nonce}",
            flush=True,
        )

    asyncio.run(serve_apps([("as", as_app, opts.as_port), ("rs", rs, opts.port)], on_ready=ready))


if __name__ == "__main__":
    main()
