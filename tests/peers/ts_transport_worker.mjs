// The TS SDK server of ts_transport_server.mjs in a worker_threads Worker, connected to its parent
// through mcp-wasm-client's messagePortTransport(parentPort). workerData.pkg: the package to load.
// The hang_up tool ends the worker (process.exit), as a crashing worker would.
import { parentPort, workerData } from "node:worker_threads";
import { createRequire } from "node:module";
import { buildServer } from "./ts_transport_server.mjs";

const { messagePortTransport } = createRequire(import.meta.url)(workerData.pkg);
const { server } = buildServer({ onHangUp: () => process.exit(3) });
await server.connect(messagePortTransport(parentPort));
