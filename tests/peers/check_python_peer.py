"""Smoke-test a peer with the Python SDK v2 client in both modes.

Usage: python3 check_python_peer.py <url> [auto|legacy ...]
Exits non-zero on the first failed expectation.
"""

from __future__ import annotations

import asyncio
import sys

from mcp import Client
from mcp.types import (
    CreateMessageResult,
    ElicitResult,
    ListRootsResult,
    Root,
    TextContent,
)


async def on_elicit(ctx, params):
    return ElicitResult(action="accept", content={"name": "octocat"})


async def on_sample(ctx, params):
    return CreateMessageResult(role="assistant", content=TextContent(type="text", text="roses are red"), model="fake-llm")


async def on_roots(ctx):
    return ListRootsResult(roots=[Root(uri="file:///tmp/project", name="project")])


def text_of(result) -> str:
    return " | ".join(c.text for c in result.content if isinstance(c, TextContent))


async def check(url: str, mode: str, full: bool) -> None:
    async with Client(
        url,
        mode=mode,
        elicitation_callback=on_elicit,
        sampling_callback=on_sample,
        list_roots_callback=on_roots,
    ) as c:
        print(f"== {mode}: protocol {c.protocol_version if hasattr(c, 'protocol_version') else '?'}")
        tools = await c.list_tools()
        names = [t.name for t in tools.tools]
        print("tools:", names)
        r = await c.call_tool("echo", {"text": "hi"})
        assert text_of(r) == "hi", r
        r = await c.call_tool("add", {"a": 2, "b": 3})
        assert r.structured_content == {"sum": 5}, r
        r = await c.call_tool("fail", {"message": "boom"})
        assert r.is_error, r
        print("fail ->", text_of(r))
        r = await c.call_tool("sleep", {"ms": 50})
        assert text_of(r) == "slept 50", r
        if not full:
            return
        r = await c.call_tool("client_features", {})
        print("client_features ->", r.structured_content, text_of(r))
        r = await c.call_tool("issue_card", {})
        print("issue_card ->", text_of(r))
        assert text_of(r) == "Card issued to octocat.", r
        r = await c.call_tool("ask_llm", {"topic": "rust"})
        print("ask_llm ->", text_of(r))
        assert "fake-llm" in text_of(r), r
        r = await c.call_tool("list_roots", {})
        print("list_roots ->", text_of(r), r.structured_content)
        assert "file:///tmp/project" in text_of(r), r
        try:
            if "issue_card_legacy" not in names:
                raise LookupError("peer has no issue_card_legacy tool")
            r = await c.call_tool("issue_card_legacy", {})
            print("issue_card_legacy ->", "isError" if r.is_error else "", text_of(r))
        except Exception as e:  # expected on the modern era: ctx.elicit needs a back-channel
            print("issue_card_legacy -> raised", type(e).__name__, e)
        res = await c.read_resource("demo://hello")
        print("demo://hello ->", res.contents[0].text)
        p = await c.get_prompt("greet", {"name": "Ada"})
        print("greet ->", p.messages[0].content.text)


async def main() -> None:
    url = sys.argv[1]
    modes = sys.argv[2:] or ["auto", "legacy"]
    full = "basic" not in modes
    for mode in [m for m in modes if m != "basic"]:
        await check(url, mode, full)
    print("OK")


if __name__ == "__main__":
    asyncio.run(main())
