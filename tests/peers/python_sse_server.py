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
The tools, the CORS (permissive, as for the streamable-HTTP python peer) and the startup
come from mcp_common.py, shared with python_server.py and demo/server.py.
"""

from __future__ import annotations

from mcp.server import MCPServer

from mcp_common import HOST, add, echo, port_from_argv, serve, with_cors

mcp = MCPServer(
    name="python-sse-peer",
    version="1.0.0",
    instructions="Deprecated HTTP+SSE (2024-11-05) test peer for the Rust/WASM MCP client.",
)

mcp.tool()(echo)
mcp.tool()(add)

# host=127.0.0.1 turns on the SDK's DNS-rebinding guard, as in mcp_common.streamable_http_app.
app = with_cors(mcp.sse_app(sse_path="/sse", message_path="/messages/", host=HOST))

if __name__ == "__main__":
    serve(app, port_from_argv(18105))
