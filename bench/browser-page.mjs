// The headless Chromium part of the benchmark (served by run.mjs, driven with playwright-core).
// `window.benchRun(id, url, opts)` → { p50, p99, tput16 } for one client:
//   ours / ours-auto: the --target web package (legacy / auto mode); ts1 (and ts1-aa, the same client
//   again for the A/A spread) / ts2 / ts2-auto: the TS SDK clients bundled for the browser by esbuild;
//   floor: bench/floor-client.mjs (one fetch + JSON.parse per call: what any client's ratio is bounded by).

import init, { Client as OursClient } from "/ours/mcp_wasm_client.js";
import * as ts1 from "/bundles/ts1.browser.js";
import * as ts2 from "/bundles/ts2.browser.js";
import { floorClient } from "/floor.mjs";

await init();

const INFO = { name: "bench", version: "1.0.0" };

async function make(id, url) {
  if (id === "floor") return floorClient(url, INFO);
  if (id === "ours" || id === "ours-auto") {
    const c = new OursClient(url, { mode: id === "ours" ? "legacy" : "auto", clientInfo: INFO, timeoutMs: 120000 });
    return { connect: () => c.connect(), call: (n, a) => c.callTool(n, a), close: () => c.close() };
  }
  if (id === "ts1" || id === "ts1-aa") {
    const c = new ts1.Client(INFO, { capabilities: {} });
    return {
      connect: () => c.connect(new ts1.StreamableHTTPClientTransport(new URL(url))),
      call: (n, a) => c.callTool({ name: n, arguments: a }, undefined, { timeout: 120000 }),
      close: () => c.close(),
    };
  }
  const c = new ts2.Client(INFO, { capabilities: {}, versionNegotiation: { mode: id === "ts2-auto" ? "auto" : "legacy" } });
  return {
    connect: () => c.connect(new ts2.StreamableHTTPClientTransport(new URL(url))),
    call: (n, a) => c.callTool({ name: n, arguments: a }, { timeout: 120000 }),
    close: () => c.close(),
  };
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function check(r) {
  if (!r || r.isError || !Array.isArray(r.content)) throw new Error(`bad result ${JSON.stringify(r)}`);
}

window.benchRun = async (id, url, { warmup, seq, tput }) => {
  const h = await make(id, url);
  await h.connect();
  try {
    for (let i = 0; i < warmup; i++) check(await h.call("echo", { text: "hi" }));
    const lat = [];
    for (let i = 0; i < seq; i++) {
      const s = performance.now();
      check(await h.call("echo", { text: "hi" }));
      lat.push(performance.now() - s);
    }
    lat.sort((a, b) => a - b);
    let next = 0;
    const s = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < tput) {
          next++;
          check(await h.call("echo", { text: "hi" }));
        }
      }),
    );
    const tput16 = tput / ((performance.now() - s) / 1000);
    return { p50: pct(lat, 50), p99: pct(lat, 99), tput16 };
  } finally {
    await h.close();
  }
};
window.benchReady = true;
