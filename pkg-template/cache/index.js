// mcp-wasm-client/cache: stores for the Client's `cache: { store }` option, plain JS outside the
// wasm (the main entry never imports it). A store keeps opaque entries (plain structured-cloneable
// objects the client makes and reads back; a store never interprets them) under string keys,
// each until its time to live runs out:
//
//   get(key)                 the entry, or undefined (missing or expired: an expired one is dropped)
//   set(key, entry, ttlMs)   keeps a copy until Date.now() + ttlMs
//   delete(key)              drops one
//   clear(prefix?)           drops every key that starts with prefix, or every key
//
// Every method returns a promise. memoryCacheStore() lives as long as the page or process;
// indexedDbCacheStore() keeps entries across reloads in a browser's IndexedDB.

/** The first element of every key the client writes (src/session/cache_store.rs KEY_TAG). */
const KEY_TAG = "mcp-wasm-client/cache/1";

/**
 * The prefix of every key the client writes for `partition` (its `cache.partition` option):
 * `store.clear(partitionPrefix("user-42"))` drops that partition's entries only. A key is the JSON
 * text of [tag, partition, server URL, server identity, method, page].
 */
export function partitionPrefix(partition) {
  return `${JSON.stringify([KEY_TAG, String(partition)]).slice(0, -1)},`;
}

/** The most entries a memoryCacheStore keeps; setting one more drops the oldest. */
const MEMORY_MAX_ENTRIES = 1024;

/** When an entry set now with `ttlMs` expires: a time in ms, Infinity (no ttl), or null (not kept). */
function expiryOf(ttlMs) {
  if (ttlMs === undefined || ttlMs === Infinity) return Infinity;
  const ttl = Number(ttlMs);
  return Number.isFinite(ttl) && ttl > 0 ? Date.now() + ttl : null;
}

function checkKey(key, what) {
  if (typeof key !== "string") throw new TypeError(`${what}: the key must be a string`);
}

/**
 * A store in memory (a Map, in insertion order): at most 1024 entries, the oldest set dropped
 * first. Entries are copied in and out (structuredClone), as IndexedDB would.
 */
export function memoryCacheStore() {
  const entries = new Map(); // key → { entry, expires }
  return {
    async get(key) {
      checkKey(key, "memoryCacheStore.get");
      const record = entries.get(key);
      if (!record) return undefined;
      if (record.expires <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return structuredClone(record.entry);
    },
    async set(key, entry, ttlMs) {
      checkKey(key, "memoryCacheStore.set");
      const expires = expiryOf(ttlMs);
      entries.delete(key); // a key set again is the newest
      if (expires === null) return;
      entries.set(key, { entry: structuredClone(entry), expires });
      while (entries.size > MEMORY_MAX_ENTRIES) entries.delete(entries.keys().next().value);
    },
    async delete(key) {
      checkKey(key, "memoryCacheStore.delete");
      entries.delete(key);
    },
    async clear(prefix) {
      if (prefix === undefined || prefix === "") return entries.clear();
      checkKey(prefix, "memoryCacheStore.clear");
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}

const STORE = "entries";

/** Resolves once the transaction has committed. */
const committed = (tx) =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("the IndexedDB transaction was aborted"));
  });

/** Deletes the records expired by now (the `expires` index), in `tx`. */
function sweep(tx) {
  const range = IDBKeyRange.upperBound(Date.now());
  const cursor = tx.objectStore(STORE).index("expires").openKeyCursor(range);
  cursor.onsuccess = () => {
    const c = cursor.result;
    if (!c) return;
    tx.objectStore(STORE).delete(c.primaryKey);
    c.continue();
  };
}

/**
 * A store in the browser's IndexedDB, database `name` (default "mcp-wasm-client-cache"): one
 * object store of records { key, entry, expires } keyed by key, with an index on expires. The
 * database is opened on first use and kept (closed when another page upgrades it, then opened
 * again when needed); opening it sweeps the expired records, and an expired entry is dropped when
 * read. In a host without IndexedDB (Node, workerd) every method rejects with an Error saying
 * "indexedDB is not available in this host".
 */
export function indexedDbCacheStore(name = "mcp-wasm-client-cache") {
  if (typeof name !== "string" || name === "") throw new TypeError("indexedDbCacheStore(name): name must be a non-empty string");
  let opening = null; // Promise<IDBDatabase>, kept while the database is open
  const open = () => {
    if (opening) return opening;
    if (typeof indexedDB === "undefined" || indexedDB === null)
      return Promise.reject(new Error("indexedDB is not available in this host"));
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: "key" });
        store.createIndex("expires", "expires");
      };
      request.onblocked = () => reject(new Error(`the IndexedDB database ${name} is blocked by another page`));
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const forget = () => {
          if (opening === current) opening = null;
        };
        db.onversionchange = () => {
          db.close();
          forget();
        };
        db.onclose = forget;
        const tx = db.transaction(STORE, "readwrite");
        sweep(tx);
        committed(tx).then(() => resolve(db), reject);
      };
    });
    const current = opening;
    opening.catch(() => {
      if (opening === current) opening = null; // the next call tries again
    });
    return opening;
  };
  /** Runs `fn(store)` in a transaction of `mode` and resolves once it has committed. */
  const run = async (mode, fn) => {
    const db = await open();
    const tx = db.transaction(STORE, mode);
    fn(tx.objectStore(STORE));
    await committed(tx);
  };
  return {
    async get(key) {
      checkKey(key, "indexedDbCacheStore.get");
      let found;
      await run("readwrite", (store) => {
        const request = store.get(key);
        request.onsuccess = () => {
          const record = request.result;
          if (!record) return;
          if (record.expires <= Date.now()) store.delete(key);
          else found = record.entry;
        };
      });
      return found;
    },
    async set(key, entry, ttlMs) {
      checkKey(key, "indexedDbCacheStore.set");
      const expires = expiryOf(ttlMs);
      await run("readwrite", (store) => (expires === null ? store.delete(key) : store.put({ key, entry, expires })));
    },
    async delete(key) {
      checkKey(key, "indexedDbCacheStore.delete");
      await run("readwrite", (store) => store.delete(key));
    },
    async clear(prefix) {
      if (prefix !== undefined && prefix !== "") checkKey(prefix, "indexedDbCacheStore.clear");
      await run("readwrite", (store) =>
        prefix === undefined || prefix === "" ? store.clear() : store.delete(IDBKeyRange.bound(prefix, `${prefix}\uffff`)),
      );
    },
  };
}
