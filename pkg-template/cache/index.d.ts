// mcp-wasm-client/cache: stores for the Client's `cache: { store }` option (docs/client.md, "Cache store").
import type { CacheEntry, CacheMode, CacheOptions, CacheStore } from "../index.js";

export type { CacheEntry, CacheMode, CacheOptions, CacheStore };

/** A store whose methods return promises (both of this module's). */
export interface AsyncCacheStore extends CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  clear(prefix?: string): Promise<void>;
}

/** The prefix of every key the client writes for `partition`: `store.clear(partitionPrefix("user-42"))` drops that partition's entries only. */
export function partitionPrefix(partition: string): string;

/** A store in memory: at most 1024 entries (the oldest set is dropped first), copied in and out with structuredClone. */
export function memoryCacheStore(): AsyncCacheStore;

/** A store in the browser's IndexedDB, database `name` (default "mcp-wasm-client-cache"), kept across reloads; opened on first use. Without IndexedDB every method rejects ("indexedDB is not available in this host"). */
export function indexedDbCacheStore(name?: string): AsyncCacheStore;
