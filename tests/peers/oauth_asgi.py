"""Small ASGI helpers of the OAuth test peer (oauth_server.py): bodies read and replayed, JSON
answers, DPoP token types, loopback checks, CORS stripped."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oauth_options import LOOPBACK


# --- small ASGI helpers ----------------------------------------------------------------------


async def _read_body(receive: Receive) -> tuple[bytes, list[Message]]:
    """The whole request body and the messages it came in (to replay them)."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    queue = list(messages)

    async def replayed() -> Message:
        return queue.pop(0) if queue else await receive()

    return replayed


async def _json(send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] = (), nonce: str | None = None) -> None:
    data = json.dumps(body).encode()
    out = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()), (b"cache-control", b"no-store")]
    out += list(headers)
    if nonce is not None:
        out.append((b"dpop-nonce", nonce.encode()))
    await send({"type": "http.response.start", "status": status, "headers": out})
    await send({"type": "http.response.body", "body": data})


def _dpop_token_type(send: Send) -> Send:
    """Rewrites a 200 token response's token_type to DPoP (the SDK's OAuthToken only says Bearer)."""
    start: Message | None = None
    chunks: list[bytes] = []

    async def wrapped(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start" and message["status"] == 200:
            start = message
            return
        if start is None or message["type"] != "http.response.body":
            await send(message)
            return
        chunks.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        body = b"".join(chunks)
        try:
            data = json.loads(body)
            data["token_type"] = "DPoP"
            body = json.dumps(data).encode()
        except (ValueError, TypeError):
            pass
        headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
        await send({**start, "headers": headers + [(b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    return wrapped


def _is_loopback(scope: Scope) -> bool:
    client = scope.get("client")
    return bool(client) and client[0] in LOOPBACK


class _StripCors:
    """Drop every Access-Control-* response header (an AS like many hosted IdPs)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [(k, v) for k, v in message["headers"] if not k.lower().startswith(b"access-control-")],
                }
            await send(message)

        await self.app(scope, receive, send_wrapper if scope["type"] == "http" else send)
