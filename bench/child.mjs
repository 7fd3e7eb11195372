// One measurement in a fresh Node process (spawned by run.mjs), printed as one JSON line.
//
//   node bench/child.mjs <task> <client> <url> [count]
//
// tasks:
//   cold     import the client + connect + one echo call (times of each step)
//   calls    connect, `count` echo calls (16 in flight), then gc: JS heap / wasm memory retained
//   big      peak RSS / heap while doing `count` 1 MiB calls (sampled every 2 ms + after each call)
//   stream   the same for `count` calls of the SSE stream tool (argument 5: events, default 10 000)
//   seq      `count` sequential echo calls (for profiles: BENCH_PROFILE=FILE)
//   all      calls + big + stream in one process (quick mode)
// Run with --expose-gc for the memory tasks.

const t0 = performance.now();
const [task, id, url, countArg, eventsArg] = process.argv.slice(2);
const events = Number(eventsArg ?? 10_000);
const count = Number(countArg ?? 1);
const { loadClient, makeClient, checkResult, loadOurs, CLIENTS } = await import("./clients.mjs");

const mb = (n) => Math.round((n / 1048576) * 100) / 100;
const gc = () => {
  if (globalThis.gc) {
    globalThis.gc();
    globalThis.gc();
  }
};
// BENCH_PROFILE=FILE: a V8 CPU profile (the same as `node --cpu-prof`) of the measured loop only,
// started after import + connect + warm-up, so module loading does not drown the per-call cost.
let session;
async function profStart() {
  if (!process.env.BENCH_PROFILE) return;
  const { Session } = await import("node:inspector/promises");
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
}
async function profStop() {
  if (!session) return;
  const { profile } = await session.post("Profiler.stop");
  (await import("node:fs")).writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile));
}
const wasmBytes = () => (CLIENTS[id].kind === "ours" ? loadOurs().wasmMemoryBytes() : 0);

async function run(task, n = count) {
  if (task === "all") {
    // quick mode: the three memory tasks in one process (numbers are then not independent)
    const calls = await run("calls", n);
    const big = await run("big", 2);
    const stream = await run("stream", 1);
    return { calls, big, stream };
  }
  if (task === "cold") {
    await loadClient(id);
    const tImport = performance.now();
    const h = await makeClient(id, url);
    await h.connect();
    const tConnect = performance.now();
    checkResult(await h.call("echo", {}), "cold call");
    const tCall = performance.now();
    await h.close();
    return { importMs: tImport - t0, connectMs: tConnect - tImport, callMs: tCall - tConnect, totalMs: tCall - t0, sinceProcessStartMs: tCall + 0 };
  }
  if (task === "seq") {
    const h = await makeClient(id, url);
    await h.connect();
    for (let i = 0; i < 50; i++) checkResult(await h.call("echo", {}), "seq warm-up");
    await profStart();
    const s = performance.now();
    for (let i = 0; i < n; i++) checkResult(await h.call("echo", {}), "seq");
    const ms = performance.now() - s;
    await profStop();
    await h.close();
    return { calls: n, ms };
  }
  if (task === "calls") {
    await loadClient(id);
    gc();
    const base = process.memoryUsage();
    const baseWasm = wasmBytes();
    const h = await makeClient(id, url);
    await h.connect();
    let next = 0;
    const worker = async () => {
      while (next < n) {
        next++;
        checkResult(await h.call("echo", {}), "calls");
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, n) }, worker));
    gc();
    const after = process.memoryUsage();
    const r = {
      calls: n,
      heapUsedMB: mb(after.heapUsed),
      heapDeltaMB: mb(after.heapUsed - base.heapUsed),
      externalDeltaMB: mb(after.external - base.external),
      rssMB: mb(after.rss),
      wasmMB: mb(wasmBytes()),
      wasmDeltaMB: mb(wasmBytes() - baseWasm),
    };
    await h.close();
    return r;
  }
  if (task === "big" || task === "stream") {
    await loadClient(id);
    const h = await makeClient(id, url);
    await h.connect();
    checkResult(await h.call("echo", {}), "warm");
    gc();
    const base = process.memoryUsage();
    const baseWasm = wasmBytes();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sample = () => {
      const m = process.memoryUsage();
      if (m.rss > peakRss) peakRss = m.rss;
      if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    };
    await profStart();
    const timer = setInterval(sample, 2);
    const s = performance.now();
    for (let i = 0; i < n; i++) {
      const r = checkResult(await h.call(task, task === "stream" ? { count: events } : {}), task);
      sample();
      if (task === "big" && r.content[0].text.length !== 1 << 20) throw new Error("big: wrong size");
    }
    const ms = performance.now() - s;
    clearInterval(timer);
    await profStop();
    if (task === "stream" && h.notifications !== events * n)
      throw new Error(`stream: ${h.notifications} notifications, expected ${events * n}`);
    const r = {
      calls: n,
      msPerCall: ms / n,
      peakRssDeltaMB: mb(peakRss - base.rss),
      peakHeapDeltaMB: mb(peakHeap - base.heapUsed),
      wasmDeltaMB: mb(wasmBytes() - baseWasm),
      notifications: h.notifications,
    };
    await h.close();
    return r;
  }
  throw new Error(`unknown task ${task}`);
}

try {
  const r = await run(task);
  process.stdout.write(JSON.stringify({ ok: true, ...r }) + "\n");
  process.exit(0);
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(e?.stack ?? e) }) + "\n");
  process.exit(1);
}
