"""The dual-era Python SDK v2 peer of python_server.py over stdio (no HTTP, no port): the first
request decides the era (a 2026-07-28 `_meta` envelope opens a modern connection, `initialize`
a legacy one). Used by tests/js/transports.test.mjs through the TS SDK's StdioClientTransport.

Usage:  python3 python_stdio.py
"""

from python_server import mcp

if __name__ == "__main__":
    mcp.run("stdio")
