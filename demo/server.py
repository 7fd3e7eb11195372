"""Demo MCP server for the mcp-wasm-client browser demo (Python SDK v2, `mcp` 2.x).

Usage:  python3 demo/server.py [port]        (default 18601; binds 127.0.0.1 only, path /mcp)
        python3 demo/server.py [port] --oauth [--as-port AS_PORT] [--token-ttl SECONDS] [--dpop] [--dpop-nonce]

`--oauth` puts an OAuth authorization server (issuer http://127.0.0.1:AS_PORT, default
port+1) and resource-server protection in front of the same tools: the AS + RS of
tests/peers/oauth_server.py, with its consent page NOT auto-approved (the user clicks
Approve in a popup), CORS on both, WWW-Authenticate exposed, and two more tools, `whoami`
and `write_note` (which needs scope mcp:write, so a client must step up). `--dpop` (with
`--oauth`) makes the AS bind tokens requested with a DPoP proof and the RS check proofs,
`--dpop-nonce` also demands server nonces (oauth_server.py's DPoP mode). Without `--oauth`
the server is unchanged.

One URL serves both protocol eras (legacy 2025-11-25 handshake and stateless 2026-07-28):
the SDK routes on the MCP-Protocol-Version header. Elicitation, sampling and roots use the
SDK's resolver mechanism (`Annotated[T, Resolve(fn)]`), which works on both eras.

URL-mode elicitation has no resolver marker in the SDK (`Elicit` is form-only), so
`connect_account` drives it by hand: on legacy it calls `ctx.elicit_url(...)` (a real
`elicitation/create` request mid-call); on 2026 the tool body returns an
`InputRequiredResult` itself and reads the answer from `ctx.input_responses` on the retry.

Tools: register_attendee (form elicitation with every field kind), connect_account (URL
elicitation), write_haiku (sampling), list_workspace (roots), long_task (progress + logs),
echo, add (structured content), make_badge (image content), fail (isError), show_chart (an MCP
App: demo/apps/chart.html rendered inline by <mcp-app-frame>) and chart_total (visible to the app only).
long_task with 8 steps or more runs as a 2026 task (`io.modelcontextprotocol/tasks`,
tasks_extension.py) when the call declares that extension, so a reloaded page can resume it with
the task id it stored; shorter runs stay inline with progress and logs.
GET /connect?id=... serves the page the URL elicitation points at.

CORS, startup, `echo` and the sampling-reply text come from tests/peers/mcp_common.py, which
the two Python test peers share; it lives with them, next to the requirements.txt that pins
this server's dependencies too, and is imported through sys.path.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import struct
import sys
import uuid
import warnings
import zlib
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    ListRoots,
    Resolve,
    Sample,
)
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image
from mcp.types import (
    CallToolResult,
    CreateMessageResult,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)
from mcp_types import ElicitRequest, ElicitRequestURLParams, ElicitResult, InputRequiredResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "peers"))
from mcp_common import HOST, echo, sampled_text, serve, streamable_http_app  # noqa: E402
from tasks_extension import TasksExtension, TaskTool  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
try:  # ctx.info / ctx.log are marked deprecated for 2026 (SEP-2577); they still work.
    from mcp.shared.exceptions import MCPDeprecationWarning

    warnings.filterwarnings("ignore", category=MCPDeprecationWarning)
except ImportError:  # pragma: no cover
    pass


def _parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Demo MCP server for the mcp-wasm-client browser demo.")
    p.add_argument("port", nargs="?", type=int, default=18601, help="MCP port (path /mcp); default 18601")
    p.add_argument("--oauth", action="store_true", help="protect /mcp with OAuth (AS + consent page on --as-port)")
    p.add_argument("--as-port", type=int, default=None, help="authorization server port; default $DEMO_AS_PORT or port+1")
    p.add_argument("--token-ttl", type=int, default=3600, help="--oauth: access token lifetime in seconds")
    p.add_argument("--dpop", action="store_true", help="--oauth: DPoP-bound tokens (RFC 9449), proofs checked")
    p.add_argument("--dpop-nonce", action="store_true", help="--oauth --dpop: AS and RS demand DPoP nonces")
    return p.parse_known_args()[0]


ARGS = _parse_args()
PORT = ARGS.port
STEP_SECONDS = 0.25
TASK_FROM_STEPS = 8  # long_task with this many steps or more (2 s and up) runs as a task


def _steps(args: dict[str, Any]) -> int:
    try:
        return max(1, min(int(args.get("steps", 5)), 20))
    except (TypeError, ValueError):
        return 5


async def long_task_as_task(args: dict[str, Any], status) -> str:
    """long_task's body when it runs as a 2026 task: one statusMessage per step instead of progress."""
    steps = _steps(args)
    for i in range(1, steps + 1):
        await asyncio.sleep(STEP_SECONDS)
        status(f"step {i} of {steps}")
    return f"Done: {steps} steps."


mcp = MCPServer(
    extensions=[
        TasksExtension({"long_task": TaskTool(long_task_as_task, lambda args: _steps(args) >= TASK_FROM_STEPS)})
    ],
    name="mcp-wasm-demo-server",
    version="1.0.0",
    instructions=(
        "Demo server for the mcp-wasm-client browser demo. Try register_attendee (a form), "
        "connect_account (a URL), write_haiku (sampling), list_workspace (roots) and long_task "
        "(progress and logs)."
    ),
)


# --- plain tools -------------------------------------------------------------------


mcp.tool()(echo)  # from mcp_common.py; first in tools/list


class Sum(BaseModel):
    sum: float


@mcp.tool()
def add(a: float, b: float) -> Sum:
    """Add two numbers; the result is structured content {"sum": a + b}."""
    return Sum(sum=a + b)


@mcp.tool()
def fail(message: str = "something went wrong") -> str:
    """Always fails: the result has isError: true and the message as text."""
    raise ToolError(message)


def _png(width: int, height: int, pixel) -> bytes:
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


@mcp.tool()
def make_badge(color: str = "teal") -> list:
    """Draw a small badge image (image content) in the given color: teal, orange or purple."""
    palette = {"teal": (20, 140, 130), "orange": (230, 120, 30), "purple": (120, 70, 170)}
    if color not in palette:
        raise ToolError(f"unknown color {color!r}; try teal, orange or purple")
    base = palette[color]

    def pixel(x: int, y: int):
        if (x // 8 + y // 8) % 2 == 0:
            return base
        return tuple(min(255, c + 60) for c in base)

    return [Image(data=_png(96, 48, pixel), format="png"), f"A {color} badge, 96x48."]


# --- form elicitation with every field kind -------------------------------------------

ATTENDEE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Full name", "description": "As printed on your badge.", "minLength": 2, "maxLength": 60},
        "email": {"type": "string", "title": "Email", "format": "email"},
        "website": {"type": "string", "title": "Website", "format": "uri", "description": "Optional."},
        "arrival": {"type": "string", "title": "Arrival day", "format": "date"},
        "talk_slot": {"type": "string", "title": "Preferred talk slot", "format": "date-time"},
        "budget": {"type": "number", "title": "Travel budget (EUR)", "minimum": 0, "maximum": 2000},
        "guests": {"type": "integer", "title": "Guests", "minimum": 0, "maximum": 4, "default": 1},
        "newsletter": {"type": "boolean", "title": "Subscribe to the newsletter", "default": False},
        "ticket": {
            "type": "string",
            "title": "Ticket",
            "enum": ["standard", "vip", "student"],
            "enumNames": ["Standard", "VIP", "Student"],
        },
        "track": {
            "type": "string",
            "title": "Track",
            "oneOf": [
                {"const": "rust", "title": "Rust & WebAssembly"},
                {"const": "web", "title": "Web platform"},
                {"const": "ai", "title": "AI agents"},
            ],
        },
        "workshops": {
            "type": "array",
            "title": "Workshops",
            "description": "Pick one or more.",
            "minItems": 1,
            "items": {"type": "string", "enum": ["wasm-bindgen", "mcp-servers", "streaming-http"]},
        },
    },
    "required": ["name", "email", "ticket", "track", "workshops"],
}


class Attendee(BaseModel):
    name: str
    email: str
    website: str | None = None
    arrival: str | None = None
    talk_slot: str | None = None
    budget: float | None = None
    guests: int = 1
    newsletter: bool = False
    ticket: str
    track: str
    workshops: list[str]

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:  # hand-written schema
        return ATTENDEE_SCHEMA


def ask_attendee() -> Elicit[Attendee]:
    return Elicit("Register for MCP Conf 2026: tell us about yourself.", Attendee)


@mcp.tool()
def register_attendee(answer: Annotated[ElicitationResult[Attendee], Resolve(ask_attendee)]) -> str:
    """Register for the conference: asks for a form with every field kind (elicitation)."""
    if not isinstance(answer, AcceptedElicitation):
        return f"Registration not completed (the user chose {answer.action})."
    a = answer.data
    lines = [
        f"Registered {a.name} <{a.email}>",
        f"ticket: {a.ticket}, track: {a.track}, workshops: {', '.join(a.workshops)}",
        f"guests: {a.guests}, newsletter: {'yes' if a.newsletter else 'no'}",
    ]
    if a.website:
        lines.append(f"website: {a.website}")
    if a.arrival:
        lines.append(f"arrival: {a.arrival}")
    if a.talk_slot:
        lines.append(f"talk slot: {a.talk_slot}")
    if a.budget is not None:
        lines.append(f"budget: {a.budget:g} EUR")
    return "\n".join(lines)


# --- URL-mode elicitation (by hand: the resolver API is form-only) ---------------------

CONNECT_KEY = "connect_account"


def _connect_url(elicitation_id: str) -> str:
    return f"http://{HOST}:{PORT}/connect?id={elicitation_id}"


def _is_modern(ctx: Context) -> bool:
    version = ctx.protocol_version or ""
    return version >= "2026-07-28"


@mcp.tool()
async def connect_account(ctx: Context, service: str = "DemoCloud") -> CallToolResult | InputRequiredResult:
    """Connect a third-party account: asks the user to open a URL (URL-mode elicitation)."""
    message = f"Sign in to {service} in your browser to connect it to this server."
    if _is_modern(ctx):
        answer = (ctx.input_responses or {}).get(CONNECT_KEY)
        if answer is None:
            elicitation_id = uuid.uuid4().hex[:12]
            request = ElicitRequest(
                params=ElicitRequestURLParams(
                    mode="url", message=message, url=_connect_url(elicitation_id), elicitation_id=elicitation_id
                )
            )
            return InputRequiredResult(input_requests={CONNECT_KEY: request}, request_state=f"connect:{elicitation_id}")
        action = answer.action if isinstance(answer, ElicitResult) else getattr(answer, "action", "cancel")
    else:
        elicitation_id = uuid.uuid4().hex[:12]
        result = await ctx.elicit_url(message, _connect_url(elicitation_id), elicitation_id)
        action = result.action
    if action == "accept":
        text = f"The user agreed to open the {service} sign-in page; the account will be connected there."
    else:
        text = f"{service} was not connected (the user chose {action})."
    return CallToolResult(content=[TextContent(type="text", text=text)])


# --- sampling and roots ------------------------------------------------------------


def ask_for_haiku(topic: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Write a haiku about {topic}."))],
        max_tokens=60,
        system_prompt="You are a poet. Answer with a haiku only.",
    )


@mcp.tool()
def write_haiku(topic: str, reply: Annotated[CreateMessageResult, Resolve(ask_for_haiku)]) -> str:
    """Ask the client's model for a haiku (sampling/createMessage)."""
    return f"Haiku about {topic} (by {reply.model}):\n{sampled_text(reply)}"


def fetch_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
def list_workspace(roots: Annotated[ListRootsResult, Resolve(fetch_roots)]) -> str:
    """List the client's workspace roots (roots/list)."""
    if not roots.roots:
        return "The client shared no roots."
    lines = [f"{len(roots.roots)} root(s):"]
    lines += [f"- {r.name or '(unnamed)'}: {r.uri}" for r in roots.roots]
    return "\n".join(lines)


# --- progress and logs ---------------------------------------------------------------


@mcp.tool()
async def long_task(ctx: Context, steps: int = 5) -> str:
    """Work for `steps` steps (max 20), reporting progress and sending a log message per step.

    With 8 steps or more, a 2026 client that declares the tasks extension gets it as a task instead
    (tasks_extension.py): the call answers at once with a task id, and `tasks/get` shows the steps
    and then the result. Shorter jobs run inline, with progress and logs.
    """
    steps = max(1, min(int(steps), 20))
    await ctx.info(f"long_task: starting {steps} steps")
    for i in range(1, steps + 1):
        await asyncio.sleep(STEP_SECONDS)
        await ctx.report_progress(i, steps, f"step {i} of {steps}")
        await ctx.info(f"long_task: finished step {i}")
    return f"Done: {steps} steps."


# --- an MCP App (io.modelcontextprotocol/ui) ----------------------------------------------------
# show_chart's result is also drawn by demo/apps/chart.html, which a host that declares the ui
# extension (new Client(url, { apps: true }) and <mcp-app-frame>) renders inline; other hosts show
# its text. chart_total is visible to the app only: the app's "Add them up" button calls it
# through the host, and a host leaves it out of the model's tool list.

APP_MIME = "text/html;profile=mcp-app"
CHART_URI = "ui://demo/chart.html"


@mcp.resource(CHART_URI, name="chart", title="Bar chart app", mime_type=APP_MIME)
def chart_app() -> str:
    """The bar chart view of show_chart (an MCP App: HTML that talks to its host by postMessage)."""
    return (Path(__file__).resolve().parent / "apps" / "chart.html").read_text(encoding="utf-8")


CHART_VALUES = (3, 5, 2, 8, 6, 4, 7)


@mcp.tool(meta={"ui": {"resourceUri": CHART_URI}})
def show_chart(title: str = "Tool calls per day", values: list[float] = list(CHART_VALUES)) -> CallToolResult:  # noqa: B006
    """Draws a bar chart of `values` (an MCP App: hosts with the ui extension render it inline)."""
    text = f"{title}: {', '.join(f'{v:g}' for v in values)} (max {max(values, default=0):g})"
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content={"title": title, "values": values},
    )


@mcp.tool(meta={"ui": {"visibility": ["app"]}})
def chart_total(values: list[float]) -> str:
    """The sum of a chart's values (called by the chart app, not offered to the model)."""
    return f"Total: {sum(values):g}"


# --- app ------------------------------------------------------------------------------

CONNECT_PAGE = """<!doctype html><meta charset="utf-8"><title>DemoCloud sign-in</title>
<style>body{{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;color:#223}}
.box{{border:1px solid #ccd;border-radius:10px;padding:1.5rem}}</style>
<div class="box"><h1>DemoCloud</h1><p>This page stands in for a third-party sign-in page
(elicitation <code>{id}</code>). Nothing is collected; you can close this window.</p></div>"""


def build_app(mcp_app=None):
    """/connect, then `mcp_app` (default: the plain Streamable HTTP app with CORS)."""
    cors = mcp_app if mcp_app is not None else streamable_http_app(mcp)

    async def app(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == "/connect":
            from urllib.parse import parse_qs

            qs = parse_qs(scope.get("query_string", b"").decode())
            body = CONNECT_PAGE.format(id=html.escape(qs.get("id", ["?"])[0])).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/html; charset=utf-8")]})
            await send({"type": "http.response.body", "body": body})
            return
        await cors(scope, receive, send)

    return app


def serve_oauth() -> None:
    """--oauth: the AS and the protected RS in one process (see tests/peers/oauth_server.py)."""
    from oauth_server import OAuthOptions, add_oauth_tools, build_oauth_apps, print_urls, serve_apps

    as_port = ARGS.as_port or int(os.environ.get("DEMO_AS_PORT", PORT + 1))
    add_oauth_tools(mcp)
    opts = OAuthOptions(
        port=PORT, as_port=as_port, auto_approve=False, token_ttl=ARGS.token_ttl, resource_name="mcp-wasm-client demo",
        dpop=ARGS.dpop or ARGS.dpop_nonce, dpop_nonce=ARGS.dpop_nonce,
    )
    rs, as_app, _ = build_oauth_apps(mcp, opts)
    asyncio.run(
        serve_apps(
            [("as", as_app, as_port), ("rs", build_app(rs), PORT)],
            on_ready=lambda: print_urls(opts, "demo server (OAuth)"),
        )
    )


app = build_app()

if __name__ == "__main__":
    if ARGS.oauth:
        serve_oauth()
    else:
        serve(app, PORT, log_level="warning")
