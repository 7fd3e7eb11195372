// The measured loop of bench/big.mjs, shared by its Node run and its Chromium page.

export const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

/** One round: `calls` calls of `big` per client, interleaved one by one (the order rotating each
 *  step) so load from anything else lands on every client alike. Per client: calls/s from the
 *  median call (as run.mjs's bigMBps takes it) and, where the host has it, CPU ms per call. */
export async function round(handles, calls, cpuUsage) {
  const ids = Object.keys(handles);
  const ms = Object.fromEntries(ids.map((id) => [id, []]));
  const cpu = Object.fromEntries(ids.map((id) => [id, 0]));
  for (let i = 0; i < calls; i++) {
    for (let j = 0; j < ids.length; j++) {
      const id = ids[(i + j) % ids.length];
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
  }
  return Object.fromEntries(ids.map((id) => [id, { rate: 1000 / median(ms[id]), cpuMs: cpuUsage ? cpu[id] / calls : NaN }]));
}

/** `rounds` rounds over `handles` (connected first, 3 warm-up calls each), then closed. */
export async function measure(handles, rounds, calls, cpuUsage) {
  for (const h of Object.values(handles)) {
    await h.connect();
    for (let i = 0; i < 3; i++) await h.call("big", {});
  }
  const out = [];
  for (let r = 0; r < rounds; r++) out.push(await round(handles, calls, cpuUsage));
  for (const h of Object.values(handles)) await h.close();
  return out;
}
