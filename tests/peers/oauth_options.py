"""The OAuth test peer's (oauth_server.py) scopes, lifetimes and options, shared by its modules."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from pydantic import AnyHttpUrl

from mcp.server.auth.routes import build_resource_metadata_url

from mcp_common import HOST


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
