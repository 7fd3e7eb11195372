// Which clients trip Node's MaxListenersExceededWarning (abort listeners piling up on one
// AbortSignal) over 1 700 sequential calls:  node bench/leakcheck.mjs <client id>  (ids: clients.mjs)
import { startServer } from "./server.mjs";
import { makeClient } from "./clients.mjs";
const s = await startServer(0);
let warned = null;
process.removeAllListeners("warning");
process.on("warning", (w) => { if (!warned) warned = w.message; });
const ids = process.argv.slice(2).length ? process.argv.slice(2) : ["ours-legacy", "ts1", "ts2"];
for (const id of ids) {
  warned = null;
  const h = await makeClient(id, s.url); await h.connect();
  for (let i = 0; i < 1700; i++) await h.call("echo", {});
  console.log(id, "seq 1700:", warned ?? "no warning");
  await h.close();
}
await s.close();
process.exit(0);
