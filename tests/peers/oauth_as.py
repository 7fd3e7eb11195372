"""The OAuth test peer's (oauth_server.py) authorization server: the SDK's routes, the consent page,
the test hooks, and what the SDK does not do (the iss parameter, metadata additions, CORS that
allows Authorization, DPoP, client_credentials)."""

from __future__ import annotations

import html
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcp.server.auth.routes import build_metadata, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import OAuthMetadata

from oauth_options import AS_SCOPES, DEFAULT_SCOPES, log
from oauth_jose import CURRENT_JKT, JoseError, jwk_thumbprint
from oauth_provider import StaticClient, TestProvider
from oauth_asgi import _StripCors, _dpop_token_type, _is_loopback, _json, _read_body, _replay


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
