"""The React tests' MCP peer: Python SDK v2 (`mcp` 2.x) over Streamable HTTP at /mcp, both eras.

Usage:  python3 tests/react/peer.py <port>        (binds 127.0.0.1 only; CORS for any origin)

What tests/react/run.mjs needs beyond tests/peers/python_server.py:
  * `toggle_bonus`: adds the tool `bonus` (or removes it when present) and announces
    `notifications/tools/list_changed`, so a rendered tool list must change;
  * `ask_llm`: samples the client's model (sampling/createMessage, both eras) and answers
    "<model>: <text>" (mcp-wasm-client/react's pendingRequests answer it from a component);
  * GET /test/stats: how many `initialize` and `server/discover` requests and legacy DELETEs
    the server has seen (a StrictMode double mount must not double-connect), and
    POST /test/reset sets them back to zero.
The elicitation tool `issue_card` and the prompt `greet` are the python peer's (from
mcp_common.py; the resolver `ask_card_holder` stays here, its `__main__:ask_card_holder` the 2026
key); the resource `demo://hello` answers "Hello from the react peer!".
"""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated

from starlette.requests import Request
from starlette.responses import JSONResponse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))

from mcp.server import MCPServer  # noqa: E402
from mcp.server.mcpserver import Context, Elicit, Resolve, Sample  # noqa: E402
from mcp.types import CreateMessageResult, SamplingMessage, TextContent  # noqa: E402

from mcp_common import CardHolder, add, card_holder_question, echo, greet, issue_card_tool, port_from_argv, sampled_text, serve, streamable_http_app  # noqa: E402

mcp = MCPServer(name="react-peer", version="1.0.0")
mcp.tool()(echo)
mcp.tool()(add)

STATS = {"initialize": 0, "discover": 0, "delete": 0}


def bonus() -> str:
    """A tool that comes and goes (toggle_bonus)."""
    return "bonus!"


@mcp.tool()
async def toggle_bonus(ctx: Context) -> str:
    """Adds the tool `bonus`, or removes it when present, and announces the change."""
    names = {t.name for t in await mcp.list_tools()}
    if "bonus" in names:
        mcp.remove_tool("bonus")
        state = "removed"
    else:
        mcp.add_tool(bonus)
        state = "added"
    try:
        await ctx.notify_tools_changed()  # 2026: the listen streams
    except Exception:  # legacy sessions have no subscription bus
        pass
    try:
        await ctx.session.send_tool_list_changed()  # legacy: the session's streams
    except Exception:  # 2026 requests have no back-channel
        pass
    return f"bonus {state}"


def ask_card_holder() -> Elicit[CardHolder]:
    return card_holder_question()


mcp.tool()(issue_card_tool(ask_card_holder))


def ask_for_poem(topic: str) -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=f"Write a short poem about {topic}."))], max_tokens=100)


@mcp.tool()
def ask_llm(topic: str, reply: Annotated[CreateMessageResult, Resolve(ask_for_poem)]) -> str:
    """Sample the client's LLM (sampling/createMessage) and return "<model>: <text>". Both eras."""
    return f"{reply.model}: {sampled_text(reply)}"


@mcp.resource("demo://hello", name="hello", mime_type="text/plain")
def hello() -> str:
    return "Hello from the react peer!"


mcp.prompt()(greet)


@mcp.custom_route("/test/stats", methods=["GET"])
async def stats(_: Request) -> JSONResponse:
    return JSONResponse(STATS)


@mcp.custom_route("/test/reset", methods=["POST"])
async def reset(_: Request) -> JSONResponse:
    for key in STATS:
        STATS[key] = 0
    return JSONResponse(STATS)


def counting(app):
    """Counts initialize / server/discover POSTs and DELETEs on /mcp; the body is passed on unchanged."""

    async def wrapped(scope, receive, send):
        if scope["type"] != "http" or scope["path"] != "/mcp":
            return await app(scope, receive, send)
        if scope["method"] == "DELETE":
            STATS["delete"] += 1
        if scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            method = json.loads(body).get("method")
        except Exception:
            method = None
        if method == "initialize":
            STATS["initialize"] += 1
        elif method == "server/discover":
            STATS["discover"] += 1
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return await app(scope, replay, send)

    return wrapped


app = counting(streamable_http_app(mcp))

if __name__ == "__main__":
    serve(app, port_from_argv(18961), log_level="warning")
