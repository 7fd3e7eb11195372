"""What the repo's Python MCP servers (Python SDK v2, `mcp` 2.x) have in common.

Used by the two test peers next to this file (python_server.py, python_sse_server.py)
and by the browser demo's server (demo/server.py, which puts this directory on
sys.path). Each server file keeps its own `MCPServer`, the tools only it has, and its
resolver functions (`Resolve(fn)`): the SDK keys a 2026 `input_required` request by the
resolver's module-qualified name, e.g. `__main__:fetch_roots`, which tests and the fuzz
corpus rely on, so a resolver must be defined in the script that runs.

  * `HOST`, `port_from_argv`, `serve`: every server binds 127.0.0.1 only and takes its
    port as the first argument.
  * `with_cors`, `streamable_http_app`: the permissive CORS every server answers with,
    and the Streamable HTTP app at /mcp that two of them serve.
  * `echo` (all three servers), `add` (the two test peers): plain tools, registered
    with `mcp.tool()(echo)` so each server still decides their place in `tools/list`.
  * `sampled_text`: the text of a `sampling/createMessage` reply.
"""

from __future__ import annotations

import sys

import uvicorn
from pydantic import BaseModel
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp

from mcp.server import MCPServer
from mcp.types import CreateMessageResult, TextContent

HOST = "127.0.0.1"


# --- startup -----------------------------------------------------------------------


def port_from_argv(default: int) -> int:
    """The port given as the first command-line argument, else `default`."""
    return int(sys.argv[1]) if len(sys.argv) > 1 else default


def serve(app: ASGIApp, port: int, log_level: str = "info") -> None:
    """Run `app` with uvicorn on 127.0.0.1:`port` until interrupted."""
    uvicorn.run(app, host=HOST, port=port, log_level=log_level)


# --- HTTP apps -----------------------------------------------------------------------


def with_cors(app: ASGIApp, expose_headers: list[str] | None = None) -> ASGIApp:
    """Wrap `app` in the permissive CORS a browser client needs.

    Any origin; methods GET, POST, DELETE, OPTIONS; every requested header allowed
    (Starlette echoes them, `mcp-param-*` and `authorization` included); `Mcp-Session-Id`
    and `WWW-Authenticate` exposed unless `expose_headers` names others; preflights cached
    for 600 s. CORSMiddleware passes non-http scopes (lifespan) straight through, so
    wrapping an SDK app from the outside keeps the lifespan that runs its session manager.
    """
    return CORSMiddleware(
        app,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["Mcp-Session-Id", "WWW-Authenticate"] if expose_headers is None else expose_headers,
        max_age=600,
    )


def streamable_http_app(mcp: MCPServer) -> ASGIApp:
    """`mcp` over Streamable HTTP at /mcp (both protocol eras), with CORS.

    host=127.0.0.1 turns on the SDK's DNS-rebinding guard: Host must be 127.0.0.1:*,
    localhost:* or [::1]:*, and a present Origin must be http://(127.0.0.1|localhost|[::1]):*
    (any other gets 403 "Invalid Origin header").
    """
    return with_cors(mcp.streamable_http_app(streamable_http_path="/mcp", host=HOST))


# --- tools ---------------------------------------------------------------------------


def echo(text: str) -> str:
    """Return the given text unchanged."""
    return text


class AddResult(BaseModel):
    sum: int


def add(a: int, b: int) -> AddResult:
    """Add two integers; structured output {"sum": a+b}."""
    return AddResult(sum=a + b)


def sampled_text(reply: CreateMessageResult) -> str:
    """The text of a sampling reply, or the repr of its content when that is not text."""
    content = reply.content
    return content.text if isinstance(content, TextContent) else repr(content)
