"""Dual-era MCP test peer: Python SDK v2 (`mcp` 2.x) `MCPServer` over Streamable HTTP.

Usage:  python3 python_server.py <port>          (binds 127.0.0.1 only, path /mcp)
        MCP_TOOLS_TTL_MS=<n> [MCP_TOOLS_CACHE_SCOPE=public]: tools/list cacheable for n ms

One URL serves both protocol eras:
  * legacy 2025-11-25: `initialize` + `Mcp-Session-Id` (stateful session manager)
  * modern 2026-07-28: `server/discover`, stateless, `_meta` envelope, MRTR
The SDK routes on the `MCP-Protocol-Version` header: a handshake version (or no
header) takes the legacy path, anything else goes to the modern entry.

Elicitation / sampling / roots on both eras use the SDK's resolver mechanism
(`Annotated[T, Resolve(fn)]`, where `fn` returns `Elicit(...)`, `Sample(...)` or
`ListRoots()`): legacy sends a real server->client JSON-RPC request mid-call, modern
returns `resultType: "input_required"` with `inputRequests` + `requestState` and
the client retries with `inputResponses`. A bare `ctx.elicit()` only works on the
legacy era (it needs a back-channel); see `issue_card_legacy`.

CORS, startup and the `echo`/`add` tools come from mcp_common.py (shared with
python_sse_server.py and demo/server.py), as do `issue_card` and the prompt `greet` (shared
with the React tests' peer, tests/react/peer.py).
"""

from __future__ import annotations

import asyncio
import os
from typing import Annotated

from pydantic import Field

from mcp.server import MCPServer
from mcp.server.apps import client_supports_apps
from mcp.server.extension import Extension
from mcp.server.caching import CacheHint
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver import (
    Context,
    Elicit,
    ListRoots,
    Resolve,
    Sample,
)
from mcp.types import (
    ClientCapabilities,
    CreateMessageResult,
    ElicitationCapability,
    ListRootsResult,
    RootsCapability,
    SamplingCapability,
    SamplingMessage,
    TextContent,
)

from mcp_common import CardHolder, add, card_holder_question, echo, greet, issue_card_tool, port_from_argv, sampled_text, serve, streamable_http_app

class ExampleThing(Extension):
    """An extension with settings, so `serverCapabilities.extensions` has something to show."""

    identifier = "io.example/thing"

    def settings(self) -> dict[str, object]:
        return {"level": 2}


def cache_hints() -> dict[str, CacheHint]:
    """prompts/list is cached 60 s (private). MCP_TOOLS_TTL_MS=<n> caches tools/list too, for n ms,
    private unless MCP_TOOLS_CACHE_SCOPE=public (tests/js/cache-client.test.mjs and
    tests/e2e/cache-client.mjs start such peers)."""
    hints = {"prompts/list": CacheHint(ttl_ms=60_000, scope="private")}
    ttl = os.environ.get("MCP_TOOLS_TTL_MS")
    if ttl:
        scope = "public" if os.environ.get("MCP_TOOLS_CACHE_SCOPE") == "public" else "private"
        hints["tools/list"] = CacheHint(ttl_ms=int(ttl), scope=scope)
    return hints


mcp = MCPServer(
    cache_hints=cache_hints(),
    name="python-peer",
    version="1.0.0",
    instructions="Test peer for the Rust/WASM MCP client (dual-era).",
    extensions=[ExampleThing()],
)


# --- plain tools -------------------------------------------------------------


mcp.tool()(echo)  # from mcp_common.py, like add; both come first in tools/list
mcp.tool()(add)


@mcp.tool()
def fail(message: str) -> str:
    """Always raises ToolError(message); result has isError: true and the message as text."""
    raise ToolError(message)


@mcp.tool()
def crash(message: str) -> str:
    """Raises an unexpected exception; isError: true but the SDK hides the message
    (text is "Error executing tool crash")."""
    raise RuntimeError(message)


@mcp.tool()
async def sleep(ms: int) -> str:
    """Sleep for `ms` milliseconds, then answer "slept <ms>"."""
    await asyncio.sleep(ms / 1000)
    return f"slept {ms}"


@mcp.tool()
def weather(city: Annotated[str, Field(json_schema_extra={"x-mcp-header": "City"})]) -> str:
    """Weather for a city; on 2026 the city also travels as the Mcp-Param-City header."""
    return f"sunny in {city}"


@mcp.tool()
async def poke(ctx: Context, kind: str = "tools", uri: str = "demo://hello") -> str:
    """Announces a change: kind = tools | prompts | resources | updated (resource `uri`)."""
    modern = {
        "tools": ctx.notify_tools_changed,
        "prompts": ctx.notify_prompts_changed,
        "resources": ctx.notify_resources_changed,
    }
    try:
        if kind == "updated":
            await ctx.notify_resource_updated(uri)
        else:
            await modern[kind]()
    except Exception:  # legacy sessions have no subscription bus
        pass
    legacy = {
        "tools": lambda: ctx.session.send_tool_list_changed(),
        "prompts": lambda: ctx.session.send_prompt_list_changed(),
        "resources": lambda: ctx.session.send_resource_list_changed(),
        "updated": lambda: ctx.session.send_resource_updated(uri),
    }
    try:
        await legacy[kind]()
    except Exception:  # 2026 requests have no back-channel
        pass
    return f"poked {kind}"


@mcp.tool()
async def log_it(text: str, ctx: Context) -> str:
    """Sends `text` as an info-level log message (2026: only if the request asked with logLevel)."""
    await ctx.info(text)
    return "logged"


@mcp.tool()
def client_features(ctx: Context) -> list[str]:
    """Which of elicitation/sampling/roots the client declared (works on both eras)."""
    declared = {
        "elicitation": ClientCapabilities(elicitation=ElicitationCapability()),
        "sampling": ClientCapabilities(sampling=SamplingCapability()),
        "roots": ClientCapabilities(roots=RootsCapability()),
    }
    return [n for n, c in declared.items() if ctx.session.check_client_capability(c)]


@mcp.tool()
def client_capabilities(ctx: Context) -> dict[str, object]:
    """The ClientCapabilities this request carried (2026) or initialize declared (legacy), as
    the SDK read them, whether the SDK sees MCP Apps support, and this request's `_meta` keys."""
    caps = ctx.client_capabilities
    params = ctx.request_context.params or {}
    return {
        "capabilities": caps.model_dump(by_alias=True, exclude_none=True) if caps else None,
        "apps": client_supports_apps(ctx),
        "meta": params.get("_meta"),
    }


# --- elicitation / sampling / roots via resolvers (both eras) -----------------


def ask_card_holder() -> Elicit[CardHolder]:
    return card_holder_question()


mcp.tool()(issue_card_tool(ask_card_holder))  # from mcp_common.py, like the prompt greet


@mcp.tool()
async def issue_card_legacy(ctx: Context) -> str:
    """Same as issue_card but with a bare ctx.elicit(): legacy (2025-11-25) era only."""
    answer = await ctx.elicit("What name should go on the card?", schema=CardHolder)
    if answer.action == "accept":
        return f"Card issued to {answer.data.name}."
    return "No card issued."


def ask_llm_for_poem(topic: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Write a short poem about {topic}."))],
        max_tokens=100,
    )


@mcp.tool()
def ask_llm(topic: str, reply: Annotated[CreateMessageResult, Resolve(ask_llm_for_poem)]) -> str:
    """Sample the client's LLM (sampling/createMessage) and return "<model>: <text>". Both eras."""
    return f"{reply.model}: {sampled_text(reply)}"


def fetch_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
def list_roots(roots: Annotated[ListRootsResult, Resolve(fetch_roots)]) -> list[str]:
    """Ask the client for its roots (roots/list) and return their URIs. Both eras."""
    return [str(r.uri) for r in roots.roots]


# --- resource and prompt -------------------------------------------------------


@mcp.resource("demo://hello", name="hello", mime_type="text/plain")
def hello() -> str:
    return "Hello from the python peer!"


mcp.prompt()(greet)


# --- app ------------------------------------------------------------------------

app = streamable_http_app(mcp)

if __name__ == "__main__":
    serve(app, port_from_argv(18101))
