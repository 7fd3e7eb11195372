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
  * `CardHolder`, `card_holder_question`, `issue_card_tool(ask)`, `greet`: the elicitation
    tool `issue_card` and the prompt `greet` of python_server.py and the React tests' peer
    (tests/react/peer.py); each script keeps its resolver `ask_card_holder`, whose
    `__main__:ask_card_holder` is the 2026 key.
  * `sampled_text`: the text of a `sampling/createMessage` reply.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated

import uvicorn
from pydantic import BaseModel
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp

from mcp.server import MCPServer
from mcp.server.mcpserver import AcceptedElicitation, Elicit, ElicitationResult, Resolve
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


# --- the elicitation tool issue_card and the prompt greet -------------------------------


class CardHolder(BaseModel):
    name: str


def card_holder_question() -> Elicit[CardHolder]:
    """The form `issue_card` elicits; a script's resolver `ask_card_holder` returns it."""
    return Elicit("What name should go on the card?", CardHolder)


def issue_card_tool(ask: Callable[[], Elicit[CardHolder]]) -> Callable[..., str]:
    """The tool `issue_card`, eliciting through `ask` (the script's resolver, whose
    module-qualified name is the 2026 `inputRequests` key); register it with `mcp.tool()(...)`."""

    def issue_card(answer: ElicitationResult[CardHolder]) -> str:
        """Elicit a name (form mode) and issue a card. Both eras (resolver-based)."""
        if isinstance(answer, AcceptedElicitation):
            return f"Card issued to {answer.data.name}."
        return "No card issued."

    # Set as objects: a string annotation (this module's `from __future__ import annotations`)
    # could not name `ask`, a local.
    issue_card.__annotations__ = {"answer": Annotated[ElicitationResult[CardHolder], Resolve(ask)], "return": str}
    return issue_card


def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Please greet {name} warmly."
