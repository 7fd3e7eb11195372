"""Deprecated HTTP+SSE transport (2024-11-05) test peer: Python SDK v2 `MCPServer.sse_app()`.

Usage:  python3 python_sse_server.py <port>          (binds 127.0.0.1 only; default 18105)

URL layout (the SDK's defaults, sse_path="/sse", message_path="/messages/"):
  GET  /sse                          -> 200 text/event-stream; first event is
                                        `event: endpoint` / `data: /messages/?session_id=<32 hex>`
                                        (a path relative to the server origin), then every
                                        server->client JSON-RPC message as `event: message`;
                                        `: ping` comments every 15 s (sse-starlette).
  POST /messages/?session_id=<hex>   -> 202 "Accepted" (text/plain); the JSON-RPC answer
                                        arrives on the GET /sse stream, not in this response.
  POST /sse                          -> 405 Method Not Allowed (Starlette route is GET-only),
                                        which is the fallback signal a dual-era client sees
                                        when it first POSTs to the SSE URL.
Tools: echo(text), add(a, b) (structured {"sum": a+b}).
CORS: permissive, as for the streamable-HTTP python peer.
"""

from __future__ import annotations

import sys

import uvicorn
from pydantic import BaseModel
from starlette.middleware.cors import CORSMiddleware

from mcp.server import MCPServer

HOST = "127.0.0.1"

mcp = MCPServer(
    name="python-sse-peer",
    version="1.0.0",
    instructions="Deprecated HTTP+SSE (2024-11-05) test peer for the Rust/WASM MCP client.",
)


@mcp.tool()
def echo(text: str) -> str:
    """Return the given text unchanged."""
    return text


class AddResult(BaseModel):
    sum: int


@mcp.tool()
def add(a: int, b: int) -> AddResult:
    """Add two integers; structured output {"sum": a+b}."""
    return AddResult(sum=a + b)


def build_app():
    # host=127.0.0.1 turns on the SDK's DNS-rebinding guard (Host must be 127.0.0.1:*,
    # localhost:* or [::1]:*; a present Origin must be http://(127.0.0.1|localhost|[::1]):*).
    inner = mcp.sse_app(sse_path="/sse", message_path="/messages/", host=HOST)
    return CORSMiddleware(
        inner,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["Mcp-Session-Id", "WWW-Authenticate"],
        max_age=600,
    )


app = build_app()

if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 18105
    uvicorn.run(app, host=HOST, port=port, log_level="info")
