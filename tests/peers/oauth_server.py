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

This file is the resource server, the two servers' run and the peer's MCP server; beside it:
oauth_options.py (scopes, lifetimes, OAuthOptions), oauth_jose.py (DPoP proofs, client
assertions), oauth_provider.py (the in-memory provider), oauth_asgi.py (small ASGI helpers) and
oauth_as.py (the authorization server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import sys
from urllib.parse import urlsplit

import uvicorn
from pydantic import AnyHttpUrl
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcp.server import MCPServer
from mcp.server.auth.json_response import PydanticJSONResponse
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware, get_access_token
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
from mcp.server.auth.provider import ProviderTokenVerifier
from mcp.shared.auth import ProtectedResourceMetadata

from mcp_common import HOST, echo, with_cors

from oauth_options import OAuthOptions, RS_EXPOSE, RS_SCOPES, SCOPE_READ, SCOPE_WRITE, _same_resource
from oauth_jose import JoseError
from oauth_provider import TestProvider
from oauth_asgi import _json, _read_body, _replay
from oauth_as import build_authorization_server


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
