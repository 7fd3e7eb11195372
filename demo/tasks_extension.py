"""The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`) for the demo server.

The Python SDK v2 (2.3.0) ships no tasks implementation on either era, but its extension API
(`mcp.server.extension.Extension`) lets a server add one: `intercept_tool_call` answers a call of
a task tool with a flat `resultType: "task"` CreateTaskResult (the runner passes an extension
`resultType` through on the 2026 wire), and `methods()` adds `tasks/get`, `tasks/update` and
`tasks/cancel` (2026-07-28 only; the 2025-11-25 task wire is not served here).

A call becomes a task only when THAT request's `_meta` client capabilities declare the extension
and the tool's `runs_as_task(arguments)` says the job is long enough (a server MAY answer a
task-capable tool synchronously); otherwise the tool runs as before (progress and logs on the call's own stream). Task state is kept
by task id in this process, not by connection, so a reloaded page can fetch its task with the id
it stored. `tasks/get` answers the DetailedTask: `working` (with a `statusMessage` per step),
`completed` with the tool's result inlined, `failed` with an `error`, or `cancelled`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel, ConfigDict

from mcp.server.extension import Extension, MethodBinding
from mcp.shared.exceptions import MCPError

TASKS = "io.modelcontextprotocol/tasks"
MODERN = frozenset({"2026-07-28"})
TERMINAL = {"completed", "failed", "cancelled"}
INVALID_PARAMS = -32602
TTL_MS = 3_600_000
POLL_MS = 500

# A task body: receives a callback `status(message)` to publish progress, returns the tool's text.
TaskBody = Callable[[dict[str, Any], Callable[[str], None]], Awaitable[str]]


@dataclass(frozen=True)
class TaskTool:
    """A tool that may run as a task: `body` does the work; `runs_as_task(arguments)` picks task or inline."""

    body: TaskBody
    runs_as_task: Callable[[dict[str, Any]], bool] = lambda _args: True


class TaskIdParams(BaseModel):
    """Params of tasks/get, tasks/update and tasks/cancel (extra keys such as `inputResponses` kept)."""

    model_config = ConfigDict(extra="allow")
    taskId: str


def _now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def _declares_tasks(params: Any) -> bool:
    meta = getattr(params, "meta", None)
    caps = None
    if meta is not None:
        extra = meta.model_dump(by_alias=True) if hasattr(meta, "model_dump") else dict(meta)
        caps = extra.get("io.modelcontextprotocol/clientCapabilities")
    if hasattr(caps, "model_dump"):
        caps = caps.model_dump(by_alias=True)
    return isinstance(caps, dict) and isinstance(caps.get("extensions"), dict) and TASKS in caps["extensions"]


class TasksExtension(Extension):
    """Runs the tools named in `tools` as 2026 tasks for clients that declare the extension."""

    identifier = TASKS

    def __init__(self, tools: dict[str, TaskTool]) -> None:
        self._tools = tools
        self._tasks: dict[str, dict[str, Any]] = {}
        self._runners: dict[str, asyncio.Task[None]] = {}

    def methods(self) -> Sequence[MethodBinding]:
        return (
            MethodBinding("tasks/get", TaskIdParams, self._get, MODERN),
            MethodBinding("tasks/update", TaskIdParams, self._update, MODERN),
            MethodBinding("tasks/cancel", TaskIdParams, self._cancel, MODERN),
        )

    async def intercept_tool_call(self, params, ctx, call_next):
        tool = self._tools.get(params.name)
        args = dict(params.arguments or {})
        if tool is None or ctx.protocol_version not in MODERN or not _declares_tasks(params):
            return await call_next(ctx)
        if not tool.runs_as_task(args):
            return await call_next(ctx)
        task = self._create()
        self._runners[task["taskId"]] = asyncio.get_running_loop().create_task(self._run(task, tool.body, args))
        return {"resultType": "task", **self._detailed(task)}

    def _create(self) -> dict[str, Any]:
        at = _now()
        task = {
            "taskId": secrets.token_hex(16),
            "status": "working",
            "createdAt": at,
            "lastUpdatedAt": at,
            "ttlMs": TTL_MS,
            "pollIntervalMs": POLL_MS,
        }
        self._tasks[task["taskId"]] = task
        return task

    async def _run(self, task: dict[str, Any], body: TaskBody, args: dict[str, Any]) -> None:
        def status(message: str) -> None:
            if task["status"] not in TERMINAL:
                task.update(statusMessage=message, lastUpdatedAt=_now())

        try:
            text = await body(args, status)
            self._finish(task, "completed", result={"content": [{"type": "text", "text": text}], "isError": False})
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a protocol-level failure of the task, reported as `failed`
            self._finish(task, "failed", error={"code": -32603, "message": str(exc)})
        finally:
            self._runners.pop(task["taskId"], None)

    def _finish(self, task: dict[str, Any], status: str, **extra: Any) -> None:
        if task["status"] in TERMINAL:
            return
        task.update(status=status, lastUpdatedAt=_now(), **extra)

    @staticmethod
    def _detailed(task: dict[str, Any]) -> dict[str, Any]:
        keys = ("taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs")
        out = {k: task[k] for k in keys if k in task}
        if task["status"] == "completed":
            out["result"] = task["result"]
        if task["status"] == "failed":
            out["error"] = task["error"]
        return out

    def _lookup(self, params: TaskIdParams) -> dict[str, Any]:
        task = self._tasks.get(params.taskId)
        if task is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown task: {params.taskId}")
        return task

    async def _get(self, ctx, params: TaskIdParams) -> dict[str, Any]:
        return self._detailed(self._lookup(params))

    async def _update(self, ctx, params: TaskIdParams) -> dict[str, Any]:
        self._lookup(params)  # the demo's tasks never ask for input: answers are acknowledged and ignored
        return {}

    async def _cancel(self, ctx, params: TaskIdParams) -> dict[str, Any]:
        task = self._lookup(params)
        self._finish(task, "cancelled", statusMessage="Cancelled.")
        runner = self._runners.pop(task["taskId"], None)
        if runner is not None:
            runner.cancel()
        return {}
