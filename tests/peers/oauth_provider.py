"""The OAuth test peer's (oauth_server.py) provider: clients, consent requests, codes and tokens, in
memory, shared by its authorization server and resource server."""

from __future__ import annotations

import base64
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_plus, urlencode

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from oauth_options import AS_SCOPES, CODE_TTL, CONSENT_TTL, DEFAULT_SCOPES, OAuthOptions, RS_SCOPES, _same_resource, log
from oauth_jose import CLIENT_ASSERTION_TYPE, CURRENT_JKT, DpopVerifier, JoseError, b64url_decode, verify_jws


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
