// The measured loop of bench/big.mjs, shared by its Node run and its Chromium page.

export const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

/** One round: `calls` calls of `big` per client, either interleaved one by one (`byCall`: the
 *  order rotating each step, so load from elsewhere lands on every client alike, but each
 *  client's garbage is collected during the others' calls too) or in blocks, one client's calls
 *  after another's (as run.mjs measures; the block order rotating with `turn`). Per client:
 *  calls/s from the median call (as run.mjs's bigMBps) and, where the host has it, CPU ms/call. */
export async function round(handles, calls, cpuUsage, byCall, turn = 0) {
  const ids = Object.keys(handles);
  const ms = Object.fromEntries(ids.map((id) => [id, []]));
  const cpu = Object.fromEntries(ids.map((id) => [id, 0]));
  const order = byCall
    ? Array.from({ length: calls * ids.length }, (_, k) => ids[(Math.floor(k / ids.length) + k) % ids.length])
    : ids.flatMap((_, j) => Array(calls).fill(ids[(j + turn) % ids.length]));
  for (const id of order) {
    const start = performance.now();
    const used = cpuUsage?.();
    const r = await handles[id].call("big", {});
    ms[id].push(performance.now() - start);
    if (used) {
      const d = cpuUsage(used);
      cpu[id] += (d.user + d.system) / 1000;
    }
    if (r.content[0].text.length !== 1 << 20) throw new Error(`big: ${id} got ${r.content[0].text.length} chars`);
  }
  return Object.fromEntries(ids.map((id) => [id, { rate: 1000 / median(ms[id]), cpuMs: cpuUsage ? cpu[id] / calls : NaN }]));
}

/** `rounds` rounds over `handles` (connected first, 3 warm-up calls each), then closed. */
export async function measure(handles, rounds, calls, cpuUsage, byCall) {
  for (const h of Object.values(handles)) {
    await h.connect();
    for (let i = 0; i < 3; i++) await h.call("big", {});
  }
  const out = [];
  for (let r = 0; r < rounds; r++) out.push(await round(handles, calls, cpuUsage, byCall, r));
  for (const h of Object.values(handles)) await h.close();
  return out;
}
