"""End-to-end check of the OAuth test peer (oauth_server.py), standalone.

Usage: python3 check_oauth_peer.py [-v]

Starts two peers on free 127.0.0.1 ports (one with --auto-approve --token-ttl 2, one with
the consent page), runs the whole flow over raw HTTP (httpx2, which `mcp` 2.x depends on)
and the Python SDK client, stops both peers by PID, and exits 0 when every check passed,
1 otherwise:

  401 + WWW-Authenticate on POST/GET/DELETE (legacy initialize and 2026 server/discover),
  CORS on the RS (preflight, exposed headers), PRM (path and root form), AS metadata,
  dynamic registration, authorize (auto-approve redirect with code/state/iss; consent page
  Approve and Deny), token exchange (PKCE), a reused code → invalid_grant, whoami on both
  eras (legacy initialize + Mcp-Session-Id; 2026 MCP-Protocol-Version: 2026-07-28),
  write_note → 403 insufficient_scope, re-authorize with mcp:read mcp:write → write_note ok,
  refresh (rotated; the old refresh token → invalid_grant), expiry (TTL and
  /test/expire-tokens) → 401, /test/stats, and the SDK's own OAuthClientProvider against it;
  then --dpop-nonce: proofs at /token and /mcp (nonce challenges, bad htu/htm/iat/signature,
  replayed jti, wrong ath, another key, a bound token sent as Bearer), bound refresh, and
  client_credentials with a secret and with private_key_jwt (needs `cryptography`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx2

from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from mcp.types import TextContent

HERE = Path(__file__).resolve().parent
VERBOSE = "-v" in sys.argv
REDIRECT_URI = "http://127.0.0.1:9/callback"  # nothing listens: codes are read from Location
MODERN = "2026-07-28"
FAILURES: list[str] = []


def check(cond: bool, what: str, detail: object = "") -> bool:
    if cond:
        print(f"  ok   {what}")
    else:
        print(f"  FAIL {what} {detail}")
        FAILURES.append(what)
    return cond


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peer:
    def __init__(self, *flags: str):
        self.port, self.as_port = free_port(), free_port()
        self.mcp = f"http://127.0.0.1:{self.port}/mcp"
        self.issuer = f"http://127.0.0.1:{self.as_port}"
        args = [sys.executable, str(HERE / "oauth_server.py"), "--port", str(self.port), "--as-port", str(self.as_port), *flags]
        self.proc = subprocess.Popen(
            args, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"oauth_server.py exited: {self.proc.stdout.read() if self.proc.stdout else ''}")
            try:
                if httpx2.get(self.mcp, timeout=1).status_code == 401:
                    return
            except httpx2.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise SystemExit("oauth_server.py did not answer within 30 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        out = self.proc.stdout.read() if self.proc.stdout else ""
        if VERBOSE:
            print(out)
        check(self.proc.returncode == 0, f"peer on {self.port}/{self.as_port} exits 0 on SIGTERM", self.proc.returncode)


# --- OAuth steps over raw HTTP -------------------------------------------------------------


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


def register(http: httpx2.Client, issuer: str, name: str = "check_oauth_peer") -> dict:
    r = http.post(
        f"{issuer}/register",
        json={
            "redirect_uris": [REDIRECT_URI],
            "client_name": name,
            "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "scope": "mcp:read",
        },
    )
    check(r.status_code == 201, "register → 201", r.text)
    return r.json()


def authorize_url(peer: Peer, client_id: str, scope: str, state: str, challenge: str) -> str:
    q = httpx2.QueryParams(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": REDIRECT_URI,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "scope": scope,
            "resource": peer.mcp,
        }
    )
    return f"{peer.issuer}/authorize?{q}"


def callback_params(location: str) -> dict[str, str]:
    check(location.startswith(REDIRECT_URI + "?"), "redirect goes to the redirect_uri", location[:80])
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def token(http: httpx2.Client, peer: Peer, form: dict[str, str]) -> httpx2.Response:
    return http.post(f"{peer.issuer}/token", data={**form, "resource": peer.mcp})


def auto_authorize(http: httpx2.Client, peer: Peer, client_id: str, scope: str) -> dict:
    verifier, challenge = pkce()
    state = secrets.token_urlsafe(8)
    r = http.get(authorize_url(peer, client_id, scope, state, challenge))
    check(r.status_code == 302, f"authorize ({scope}) → 302", r.status_code)
    cb = callback_params(r.headers["location"])
    check(cb.get("state") == state and cb.get("iss") == peer.issuer and "code" in cb, "callback has code, state, iss", cb.keys())
    r = token(http, peer, {"grant_type": "authorization_code", "code": cb["code"], "redirect_uri": REDIRECT_URI,
                           "client_id": client_id, "code_verifier": verifier})
    check(r.status_code == 200, "token (authorization_code) → 200", r.text)
    tokens = r.json()
    check(tokens.get("token_type") == "Bearer" and tokens.get("refresh_token") and tokens.get("scope") == scope,
          f"token response: Bearer, refresh_token, scope {scope!r}", {k: v for k, v in tokens.items() if "token" not in k})
    # a code is single use
    r = token(http, peer, {"grant_type": "authorization_code", "code": cb["code"], "redirect_uri": REDIRECT_URI,
                           "client_id": client_id, "code_verifier": verifier})
    check(r.status_code == 400 and r.json().get("error") == "invalid_grant", "reused code → invalid_grant", r.text)
    return tokens


# --- MCP over raw HTTP ---------------------------------------------------------------------

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def rpc_result(r: httpx2.Response) -> dict:
    """The JSON-RPC message of a JSON or SSE response body."""
    if r.headers.get("content-type", "").startswith("text/event-stream"):
        for line in r.text.splitlines():
            if line.startswith("data:") and line[5:].strip():
                msg = json.loads(line[5:])
                if "id" in msg:
                    return msg
        return {}
    return r.json()


def bearer(tok: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"}


def legacy_call(http: httpx2.Client, peer: Peer, tok: str, name: str, args: dict) -> httpx2.Response:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "check", "version": "1"}}}
    r = http.post(peer.mcp, json=init, headers={**ACCEPT, **bearer(tok)})
    check(r.status_code == 200 and "mcp-session-id" in r.headers, "legacy initialize with a token → 200 + Mcp-Session-Id", r.status_code)
    sid = {"Mcp-Session-Id": r.headers.get("mcp-session-id", ""), "MCP-Protocol-Version": "2025-11-25"}
    http.post(peer.mcp, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers={**ACCEPT, **bearer(tok), **sid})
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": args}}
    return http.post(peer.mcp, json=call, headers={**ACCEPT, **bearer(tok), **sid})


def text(result: dict) -> str:
    return " | ".join(c.get("text", "") for c in result.get("result", {}).get("content", []))


# --- the Python SDK client (both eras) -----------------------------------------------------


async def sdk_call(url: str, tok: str, mode: str, name: str, args: dict) -> str:
    async with httpx2.AsyncClient(headers=bearer(tok), timeout=httpx2.Timeout(30, read=60)) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as c:
            r = await c.call_tool(name, args)
            return " | ".join(x.text for x in r.content if isinstance(x, TextContent))


class MemoryStorage(TokenStorage):
    def __init__(self):
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


async def sdk_oauth_flow(peer: Peer) -> str:
    """The SDK's OAuthClientProvider does discovery, registration, PKCE and the token
    exchange itself; the 'browser' is an httpx GET whose Location we hand back."""
    location: dict[str, str] = {}

    async def redirect_handler(url: str) -> None:
        async with httpx2.AsyncClient() as h:
            location["url"] = (await h.get(url)).headers["location"]

    async def callback_handler() -> AuthorizationCodeResult:
        q = parse_qs(urlsplit(location["url"]).query)
        return AuthorizationCodeResult(code=q["code"][0], state=q.get("state", [None])[0], iss=q.get("iss", [None])[0])

    auth = OAuthClientProvider(
        server_url=peer.mcp,
        client_metadata=OAuthClientMetadata(redirect_uris=[REDIRECT_URI], client_name="python-sdk-client",
                                            token_endpoint_auth_method="none"),
        storage=MemoryStorage(),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    async with httpx2.AsyncClient(auth=auth, timeout=httpx2.Timeout(30, read=60)) as http:
        async with Client(streamable_http_client(peer.mcp, http_client=http), mode="legacy") as c:
            r = await c.call_tool("whoami", {})
            return " | ".join(x.text for x in r.content if isinstance(x, TextContent))


# --- the checks ----------------------------------------------------------------------------


def unauthenticated(http: httpx2.Client, peer: Peer) -> None:
    print("== unauthenticated requests, PRM, AS metadata")
    prm_url = f"http://127.0.0.1:{peer.port}/.well-known/oauth-protected-resource/mcp"
    want = f'resource_metadata="{prm_url}"'
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}
    discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}
    cases = [
        ("POST initialize", "POST", init, {}),
        ("POST server/discover (2026)", "POST", discover, {"MCP-Protocol-Version": MODERN, "Mcp-Method": "server/discover"}),
        ("GET", "GET", None, {}),
        ("DELETE", "DELETE", None, {"Mcp-Session-Id": "x"}),
        ("POST with a bogus token", "POST", init, {"Authorization": "Bearer nope"}),
    ]
    for label, method, body, headers in cases:
        r = http.request(method, peer.mcp, json=body, headers={**ACCEPT, **headers})
        h = r.headers.get("www-authenticate", "")
        check(r.status_code == 401 and h.startswith("Bearer ") and want in h and 'scope="mcp:read"' in h,
              f"{label} → 401 with resource_metadata and scope", (r.status_code, h))
    # CORS on the RS
    origin = {"Origin": "http://127.0.0.1:5555"}
    r = http.options(peer.mcp, headers={**origin, "Access-Control-Request-Method": "POST",
                                        "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version,mcp-method,mcp-name,mcp-param-city,last-event-id"})
    allowed = r.headers.get("access-control-allow-headers", "").lower()
    check(r.status_code == 200 and "authorization" in allowed and "mcp-param-city" in allowed, "RS preflight allows Authorization, Mcp-*", allowed)
    r = http.post(peer.mcp, json=init, headers={**ACCEPT, **origin})
    exposed = r.headers.get("access-control-expose-headers", "").lower()
    check(r.status_code == 401 and "www-authenticate" in exposed and "mcp-session-id" in exposed, "RS 401 exposes WWW-Authenticate", exposed)
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
        r = http.get(f"http://127.0.0.1:{peer.port}{path}")
        prm = r.json()
        check(r.status_code == 200 and prm.get("resource") == peer.mcp and prm.get("authorization_servers") == [peer.issuer]
              and prm.get("scopes_supported") == ["mcp:read", "mcp:write"], f"PRM at {path}", prm)
    r = http.get(f"{peer.issuer}/.well-known/oauth-authorization-server", headers=origin)
    md = r.json()
    check(md.get("issuer") == peer.issuer, "AS issuer is exactly the origin (no trailing slash)", md.get("issuer"))
    check(md.get("code_challenge_methods_supported") == ["S256"] and md.get("registration_endpoint") == f"{peer.issuer}/register"
          and md.get("authorization_response_iss_parameter_supported") is True
          and {"mcp:read", "mcp:write", "offline_access"} <= set(md.get("scopes_supported") or [])
          and "none" in md.get("token_endpoint_auth_methods_supported", []), "AS metadata fields", md)
    check(r.headers.get("access-control-allow-origin") == "*", "AS metadata has CORS")


def main_flow(http: httpx2.Client, peer: Peer) -> None:
    print("== auto-approve flow (token TTL 2 s)")
    client = register(http, peer.issuer)
    cid = client["client_id"]
    tokens = auto_authorize(http, peer, cid, "mcp:read")
    at = tokens["access_token"]

    r = legacy_call(http, peer, at, "whoami", {})
    msg = rpc_result(r)
    check(r.status_code == 200 and text(msg) == f"client_id={cid} scopes=mcp:read", "legacy raw whoami", text(msg) or r.text)
    got = asyncio.run(sdk_call(peer.mcp, at, "legacy", "whoami", {}))
    check(got == f"client_id={cid} scopes=mcp:read", "legacy (SDK client, initialize) whoami", got)
    got = asyncio.run(sdk_call(peer.mcp, at, MODERN, "whoami", {}))
    check(got == f"client_id={cid} scopes=mcp:read", "2026-07-28 (SDK client, MCP-Protocol-Version) whoami", got)

    r = legacy_call(http, peer, at, "write_note", {"text": "hi"})
    h = r.headers.get("www-authenticate", "")
    check(r.status_code == 403 and 'error="insufficient_scope"' in h and 'scope="mcp:read mcp:write"' in h and "resource_metadata=" in h,
          "legacy write_note without mcp:write → 403 insufficient_scope", (r.status_code, h))
    modern = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "write_note", "arguments": {"text": "x"}}}
    r = http.post(peer.mcp, json=modern, headers={**ACCEPT, **bearer(at), "MCP-Protocol-Version": MODERN,
                                                  "Mcp-Method": "tools/call", "Mcp-Name": "write_note"})
    check(r.status_code == 403 and 'error="insufficient_scope"' in r.headers.get("www-authenticate", ""),
          "2026 write_note without mcp:write → 403", r.status_code)

    tokens = auto_authorize(http, peer, cid, "mcp:read mcp:write")
    at, rt = tokens["access_token"], tokens["refresh_token"]
    r = legacy_call(http, peer, at, "write_note", {"text": "hi"})
    check(r.status_code == 200 and text(rpc_result(r)) == "noted #1: hi", "write_note with mcp:write → ok", r.text[:200])
    got = asyncio.run(sdk_call(peer.mcp, at, MODERN, "write_note", {"text": "modern"}))
    check(got == "noted #2: modern", "2026 write_note with mcp:write → ok", got)

    r = token(http, peer, {"grant_type": "refresh_token", "refresh_token": rt, "client_id": cid})
    check(r.status_code == 200 and r.json().get("refresh_token") not in (None, rt) and r.json().get("scope") == "mcp:read mcp:write",
          "refresh → new access and refresh token (rotated)", r.text[:80] if r.status_code != 200 else "")
    new = r.json()
    r = http.get(peer.mcp, headers={**ACCEPT, **bearer(at)})
    check(r.status_code == 401, "the access token issued with the old refresh token is gone → 401", r.status_code)
    r = token(http, peer, {"grant_type": "refresh_token", "refresh_token": rt, "client_id": cid})
    check(r.status_code == 400 and r.json().get("error") == "invalid_grant", "used refresh token → invalid_grant", r.text)
    r = token(http, peer, {"grant_type": "refresh_token", "refresh_token": "bogus", "client_id": cid})
    check(r.status_code == 400 and r.json().get("error") == "invalid_grant", "unknown refresh token → invalid_grant", r.text)
    got = asyncio.run(sdk_call(peer.mcp, new["access_token"], "legacy", "whoami", {}))
    check(got == f"client_id={cid} scopes=mcp:read mcp:write", "refreshed token works", got)

    time.sleep(3.1)
    r = http.post(peer.mcp, json={"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}},
                  headers={**ACCEPT, **bearer(new["access_token"]), "MCP-Protocol-Version": MODERN, "Mcp-Method": "server/discover"})
    check(r.status_code == 401 and 'error="invalid_token"' in r.headers.get("www-authenticate", ""), "token past its TTL → 401", r.status_code)
    r = token(http, peer, {"grant_type": "refresh_token", "refresh_token": new["refresh_token"], "client_id": cid})
    check(r.status_code == 200, "refresh after expiry → 200", r.text)
    fresh = r.json()["access_token"]
    r = http.post(f"{peer.issuer}/test/expire-tokens")
    check(r.status_code == 200 and r.json().get("expired", 0) >= 1, "POST /test/expire-tokens", r.text)
    r = http.get(peer.mcp, headers={**ACCEPT, **bearer(fresh)})
    check(r.status_code == 401, "token expired by the test hook → 401", r.status_code)

    stats = http.get(f"{peer.issuer}/test/stats").json()
    check(stats["registrations"] == 1 and stats["authorization_requests"] == 2
          and stats["token_requests"] == {"authorization_code": 4, "refresh_token": 4}
          and stats["last_token_request"]["resource"] == peer.mcp, "GET /test/stats", stats)

    r = http.get(authorize_url(peer, cid, "mcp:admin", "s1", pkce()[1]))
    cb = callback_params(r.headers.get("location", ""))
    check(cb.get("error") == "invalid_scope" and cb.get("iss") == peer.issuer and cb.get("state") == "s1",
          "unknown scope → error redirect with state and iss", cb)

    got = asyncio.run(sdk_oauth_flow(peer))
    # SEP-2207: the SDK adds offline_access because the AS lists it
    check(got.startswith("client_id=") and got.endswith("scopes=mcp:read offline_access"),
          "Python SDK OAuthClientProvider flow (discovery, DCR, PKCE, iss) → whoami", got)
    last = http.get(f"{peer.issuer}/test/stats").json()["last_authorization_request"]
    check(last["resource"] == peer.mcp and last["scope"] == "mcp:read offline_access", "the SDK client sent resource and scope", last)


def consent_flow(http: httpx2.Client, peer: Peer) -> None:
    print("== consent page flow")
    cid = register(http, peer.issuer, name="Consent <Test>")["client_id"]
    for action in ("approve", "deny"):
        verifier, challenge = pkce()
        r = http.get(authorize_url(peer, cid, "mcp:read mcp:write", f"st-{action}", challenge))
        loc = r.headers.get("location", "")
        check(r.status_code == 302 and loc.startswith(f"{peer.issuer}/consent?request_id="), "authorize → 302 to the consent page", loc)
        page = http.get(loc)
        body = page.text
        check(page.status_code == 200 and ">Approve</button>" in body and ">Deny</button>" in body
              and "Consent &lt;Test&gt;" in body and 'data-scope="mcp:write"' in body, "consent page: Approve, Deny, client name, scopes")
        request_id = re.search(r'name="request_id" value="([^"]+)"', body)
        r = http.post(f"{peer.issuer}/consent", data={"request_id": request_id.group(1) if request_id else "", "action": action})
        check(r.status_code == 302, f"consent POST ({action}) → 302", r.status_code)
        cb = callback_params(r.headers.get("location", ""))
        check(cb.get("state") == f"st-{action}" and cb.get("iss") == peer.issuer, "callback carries state and iss", cb)
        if action == "approve":
            r = token(http, peer, {"grant_type": "authorization_code", "code": cb.get("code", ""), "redirect_uri": REDIRECT_URI,
                                   "client_id": cid, "code_verifier": verifier})
            check(r.status_code == 200 and r.json().get("scope") == "mcp:read mcp:write", "code from consent → tokens", r.text[:100])
        else:
            check(cb.get("error") == "access_denied" and "code" not in cb, "Deny → error=access_denied", cb)
        r = http.post(f"{peer.issuer}/consent", data={"request_id": request_id.group(1) if request_id else "", "action": action})
        check(r.status_code == 400, "a consent request answers once", r.status_code)


def no_cors_variants(http: httpx2.Client, peer: Peer) -> None:
    print("== --as-no-cors --hide-www-authenticate")
    origin = {"Origin": "http://127.0.0.1:5555"}
    r = http.get(f"{peer.issuer}/.well-known/oauth-authorization-server", headers=origin)
    check(r.status_code == 200 and not any(k.lower().startswith("access-control-") for k in r.headers), "AS sends no CORS headers")
    r = http.options(f"{peer.issuer}/token", headers={**origin, "Access-Control-Request-Method": "POST"})
    check("access-control-allow-origin" not in r.headers, "AS preflight has no CORS headers", r.status_code)
    r = http.post(peer.mcp, json={}, headers={**ACCEPT, **origin})
    exposed = r.headers.get("access-control-expose-headers", "").lower()
    check(r.status_code == 401 and r.headers.get("access-control-allow-origin") == "*" and "www-authenticate" not in exposed
          and "mcp-session-id" in exposed, "RS CORS on, WWW-Authenticate not exposed", exposed)


# --- DPoP (--dpop --dpop-nonce) and client_credentials ---------------------------------------


class DpopKey:
    """A P-256 key making RFC 9449 proofs (cryptography, as oauth_server.py verifies them)."""

    def __init__(self):
        from cryptography.hazmat.primitives.asymmetric import ec

        self.key = ec.generate_private_key(ec.SECP256R1())
        n = self.key.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256", "x": b64u(n.x.to_bytes(32, "big")), "y": b64u(n.y.to_bytes(32, "big"))}
        members = json.dumps({"crv": "P-256", "kty": "EC", "x": self.jwk["x"], "y": self.jwk["y"]}, separators=(",", ":"))
        self.jkt = b64u(hashlib.sha256(members.encode()).digest())

    def sign(self, header: dict, claims: dict) -> str:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

        signing = f"{b64u(json.dumps(header).encode())}.{b64u(json.dumps(claims).encode())}"
        r, s = decode_dss_signature(self.key.sign(signing.encode(), ec.ECDSA(hashes.SHA256())))
        return f"{signing}.{b64u(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"

    def proof(self, htm: str, htu: str, nonce: str | None = None, token: str | None = None, **extra) -> str:
        claims = {"jti": secrets.token_urlsafe(12), "htm": htm, "htu": htu, "iat": int(time.time())}
        if nonce:
            claims["nonce"] = nonce
        if token:
            claims["ath"] = b64u(hashlib.sha256(token.encode()).digest())
        claims.update(extra)
        return self.sign({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}, claims)


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def dpop_flow(http: httpx2.Client, peer: Peer) -> None:
    print("== --dpop --dpop-nonce: proofs at /token and /mcp, binding, nonces; client_credentials")
    origin = {"Origin": "http://127.0.0.1:5555"}
    md = http.get(f"{peer.issuer}/.well-known/oauth-authorization-server").json()
    check(md.get("dpop_signing_alg_values_supported") == ["ES256"] and "client_credentials" in md.get("grant_types_supported", [])
          and "private_key_jwt" in md.get("token_endpoint_auth_methods_supported", []), "AS metadata: DPoP ES256, client_credentials, private_key_jwt", md)
    r = http.options(f"{peer.issuer}/token", headers={**origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "dpop"})
    check(r.status_code == 200 and "dpop" in r.headers.get("access-control-allow-headers", "").lower(), "AS preflight allows DPoP", r.headers)
    key, other = DpopKey(), DpopKey()
    te = f"{peer.issuer}/token"
    cid = register(http, peer.issuer)["client_id"]
    verifier, challenge = pkce()
    r = http.get(authorize_url(peer, cid, "mcp:read", "d1", challenge))
    code = callback_params(r.headers.get("location", "")).get("code", "")
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI, "client_id": cid,
            "code_verifier": verifier, "resource": peer.mcp}
    r = http.post(te, data=form, headers={**origin, "DPoP": key.proof("POST", te)})
    nonce = r.headers.get("dpop-nonce")
    check(r.status_code == 400 and r.json().get("error") == "use_dpop_nonce" and nonce
          and "dpop-nonce" in r.headers.get("access-control-expose-headers", "").lower(),
          "/token without the nonce → 400 use_dpop_nonce + DPoP-Nonce (exposed)", (r.status_code, r.text, dict(r.headers)))
    for label, proof in [("htu of another URL", key.proof("POST", f"{peer.issuer}/other", nonce)),
                         ("htm GET", key.proof("GET", te, nonce)),
                         ("iat 5 minutes old", key.proof("POST", te, nonce, iat=int(time.time()) - 300)),
                         ("bad signature", key.proof("POST", te, nonce)[:-4] + "AAAA")]:
        r = http.post(te, data=form, headers={"DPoP": proof})
        check(r.status_code == 400 and r.json().get("error") == "invalid_dpop_proof", f"/token proof with {label} → invalid_dpop_proof", r.text)
    proof = key.proof("POST", te, nonce)
    r = http.post(te, data=form, headers={"DPoP": proof})
    tokens = r.json()
    check(r.status_code == 200 and tokens.get("token_type") == "DPoP", "/token with a valid proof → token_type DPoP", r.text[:120])
    r = http.post(te, data=form, headers={"DPoP": proof})
    check(r.status_code == 400 and r.json().get("error") == "invalid_dpop_proof", "a replayed proof (same jti) → invalid_dpop_proof", r.text)
    at = tokens.get("access_token", "")
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}
    dp = lambda p: {**ACCEPT, "Authorization": f"DPoP {at}", "DPoP": p}  # noqa: E731
    r = http.post(peer.mcp, json=init, headers={**dp(key.proof("POST", peer.mcp, token=at)), **origin})
    rs_nonce = r.headers.get("dpop-nonce")
    h = r.headers.get("www-authenticate", "")
    check(r.status_code == 401 and h.startswith('DPoP error="use_dpop_nonce"') and rs_nonce and rs_nonce != nonce
          and "dpop-nonce" in r.headers.get("access-control-expose-headers", "").lower(),
          "RS without its nonce → 401 DPoP use_dpop_nonce + DPoP-Nonce (exposed)", (r.status_code, h))
    proof = key.proof("POST", peer.mcp, rs_nonce, token=at)
    r = http.post(peer.mcp, json=init, headers=dp(proof))
    check(r.status_code == 200 and "mcp-session-id" in r.headers, "RS: DPoP token + proof (nonce, ath) → 200", (r.status_code, r.text[:100]))
    r = http.post(peer.mcp, json=init, headers=dp(proof))
    check(r.status_code == 401 and 'error="invalid_dpop_proof"' in r.headers.get("www-authenticate", ""), "RS: a replayed proof → 401 invalid_dpop_proof", r.status_code)
    for label, proof in [("ath of another token", key.proof("POST", peer.mcp, rs_nonce, token="other")),
                         ("htu with the query", key.proof("POST", peer.mcp + "?x=1", rs_nonce, token=at)),
                         ("no proof", None)]:
        headers = dp(proof) if proof else {**ACCEPT, "Authorization": f"DPoP {at}"}
        r = http.post(peer.mcp, json=init, headers=headers)
        check(r.status_code == 401 and 'DPoP error="invalid_dpop_proof"' in r.headers.get("www-authenticate", ""), f"RS: {label} → 401 invalid_dpop_proof", r.headers.get("www-authenticate"))
    r = http.post(peer.mcp, json=init, headers=dp(other.proof("POST", peer.mcp, rs_nonce, token=at)))
    check(r.status_code == 401 and 'DPoP error="invalid_token"' in r.headers.get("www-authenticate", ""), "RS: a proof by another key → 401 invalid_token", r.status_code)
    r = http.post(peer.mcp, json=init, headers={**ACCEPT, **bearer(at)})
    check(r.status_code == 401 and r.headers.get("www-authenticate", "").startswith('DPoP error="invalid_token"'),
          "RS: the DPoP-bound token sent as Bearer → 401 DPoP invalid_token", r.headers.get("www-authenticate"))
    r = http.post(peer.mcp, json=init, headers=ACCEPT)
    check(r.status_code == 401 and 'DPoP algs="ES256"' in r.headers.get("www-authenticate", ""), "RS: 401 without a token also offers DPoP", r.headers.get("www-authenticate"))
    rf = {"grant_type": "refresh_token", "refresh_token": tokens.get("refresh_token", ""), "client_id": cid, "resource": peer.mcp}
    r = http.post(te, data=rf, headers={"DPoP": other.proof("POST", te, nonce)})
    check(r.status_code == 400 and r.json().get("error") == "invalid_grant", "refresh with a proof by another key → invalid_grant", r.text)
    r = http.post(te, data=rf)
    check(r.status_code == 400 and r.json().get("error") == "invalid_grant", "refresh of a bound token without a proof → invalid_grant", r.text)
    r = http.post(te, data=rf, headers={"DPoP": key.proof("POST", te, nonce)})
    check(r.status_code == 200 and r.json().get("token_type") == "DPoP", "refresh with the same key → DPoP token", r.text[:100])

    # client_credentials: secret (basic) and private_key_jwt (ES256), DPoP-bound with a proof
    http.post(f"{peer.issuer}/test/static-client", json={"client_id": "svc-secret", "client_secret": "s3cret"})
    r = http.post(te, data={"grant_type": "client_credentials", "scope": "mcp:read"}, auth=("svc-secret", "s3cret"))
    check(r.status_code == 200 and r.json().get("token_type") == "Bearer" and "refresh_token" not in r.json(),
          "client_credentials with client_secret_basic → Bearer, no refresh token", r.text[:100])
    r = http.post(te, data={"grant_type": "client_credentials"}, auth=("svc-secret", "wrong"))
    check(r.status_code == 401 and r.json().get("error") == "invalid_client", "a wrong secret → 401 invalid_client", r.text)
    svc = DpopKey()
    http.post(f"{peer.issuer}/test/static-client", json={"client_id": "svc-key", "jwk": svc.jwk})
    now = int(time.time())
    assertion = svc.sign({"alg": "ES256", "typ": "JWT"}, {"iss": "svc-key", "sub": "svc-key", "aud": peer.issuer, "jti": secrets.token_urlsafe(8), "iat": now, "exp": now + 300})
    cc = {"grant_type": "client_credentials", "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          "client_assertion": assertion, "resource": peer.mcp}
    r = http.post(te, data=cc, headers={"DPoP": key.proof("POST", te, nonce)})
    check(r.status_code == 200 and r.json().get("token_type") == "DPoP", "client_credentials with private_key_jwt + DPoP proof → DPoP token", r.text[:120])
    r = http.post(te, data=cc)
    check(r.status_code == 401 and "jti already used" in r.json().get("error_description", ""), "a replayed client assertion → invalid_client", r.text)
    bad = other.sign({"alg": "ES256"}, {"iss": "svc-key", "sub": "svc-key", "aud": peer.issuer, "jti": "x2", "exp": now + 300})
    r = http.post(te, data={**cc, "client_assertion": bad})
    check(r.status_code == 401 and r.json().get("error") == "invalid_client", "an assertion signed by another key → invalid_client", r.text)
    stats = http.get(f"{peer.issuer}/test/stats").json()
    d = stats.get("dpop", {})
    check(d.get("bound_jkts") == [key.jkt] and d.get("as_nonce_challenges") == 1 and d.get("rs_nonce_challenges") == 1
          and d.get("bound_tokens_issued") == 3 and d.get("bearer_use_of_bound_token_refused") == 1 and d.get("wrong_key_refused") == 3
          and d.get("rs_proofs_verified") >= 2 and stats["client_credentials"]["by_auth_method"] == {"client_secret_basic": 1, "private_key_jwt": 1},
          "/test/stats: dpop and client_credentials counters", {k: stats[k] for k in ("dpop", "client_credentials")})


def main() -> int:
    with httpx2.Client(timeout=30, follow_redirects=False) as http:
        peers = []
        try:
            auto = Peer("--auto-approve", "--token-ttl", "2")
            peers.append(auto)
            unauthenticated(http, auto)
            main_flow(http, auto)
            consent = Peer()
            peers.append(consent)
            consent_flow(http, consent)
            hidden = Peer("--auto-approve", "--as-no-cors", "--hide-www-authenticate")
            peers.append(hidden)
            no_cors_variants(http, hidden)
            dpop = Peer("--auto-approve", "--dpop-nonce")
            peers.append(dpop)
            dpop_flow(http, dpop)
        finally:
            for p in peers:
                p.stop()
    print("PASS" if not FAILURES else f"FAILED: {len(FAILURES)} check(s): {FAILURES}")
    return 0 if not FAILURES else 1


if __name__ == "__main__":
    sys.exit(main())
