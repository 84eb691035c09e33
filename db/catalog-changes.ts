import "server-only";
import { randomUUID } from "node:crypto";
import { Client } from "pg";
import { type Db, isPostgres, locationOf, postgresPoolOf } from "./client";

// Instances on one PostgreSQL database tell each other that a catalog changed (NOTIFY), so that
// each can catch up at once rather than on its next request. A notice is only a hint: whoever
// misses one (a lost connection, an instance starting) still catches up from the change log on its
// next request, as before. On SQLite one instance holds the database: nothing to tell.

const CHANNEL = "toolshed_catalog_changes";
/** Each handle's name in its notices, so that it skips its own (an instance has one handle). */
const senders = new WeakMap<Db, string>();

function senderOf(db: Db): string {
  const sender = senders.get(db) ?? randomUUID();
  senders.set(db, sender);
  return sender;
}

/** After the listening connection fails: wait, then listen again. */
const RECONNECT_MS = 2_000;

/** Tells the other instances on the database that the catalog changed (nothing on SQLite). */
export async function announceCatalogChange(db: Db, catalogId: string): Promise<void> {
  if (!isPostgres(db)) return;
  await postgresPoolOf(db).query("SELECT pg_notify($1, $2)", [CHANNEL, JSON.stringify({ from: senderOf(db), catalog: catalogId })]);
}

/** Listening for the other instances' notices: `listening` settles once the first LISTEN is in place. */
export interface CatalogChangeListener {
  listening: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Calls `onChange` with the catalog's id whenever another instance announces a change, on a
 * connection of its own (not the pool's), listening again after it fails. Nothing on SQLite.
 */
export function listenForCatalogChanges(db: Db, onChange: (catalogId: string) => void, onError: (error: Error) => void): CatalogChangeListener {
  const location = locationOf(db);
  if (location === undefined || !("postgres" in location)) return { listening: Promise.resolve(), stop: async () => {} };
  const sender = senderOf(db);
  let listened: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    listened = resolve;
  });
  let client: Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  const again = (failed: Client, error: Error) => {
    if (client !== failed) return;
    onError(error);
    client = undefined;
    void failed.end().catch(() => {});
    if (!stopped && retry === undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        void listen();
      }, RECONNECT_MS);
    }
  };
  const listen = async () => {
    const connection = new Client({ connectionString: location.postgres });
    client = connection;
    connection.on("notification", ({ channel, payload }) => {
      const notice = channel === CHANNEL ? noticeOf(payload) : undefined;
      if (notice && notice.from !== sender) onChange(notice.catalog);
    });
    connection.on("error", (error) => again(connection, error));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${CHANNEL}`);
      listened();
    } catch (error) {
      again(connection, error as Error);
    }
  };
  void listen();
  const stop = async () => {
    stopped = true;
    clearTimeout(retry);
    const connection = client;
    client = undefined;
    await connection?.end().catch(() => {});
  };
  return { listening, stop };
}

function noticeOf(payload: string | undefined): { from: string; catalog: string } | undefined {
  try {
    const notice = JSON.parse(payload ?? "") as { from?: unknown; catalog?: unknown };
    return typeof notice.from === "string" && typeof notice.catalog === "string" ? { from: notice.from, catalog: notice.catalog } : undefined;
  } catch {
    return undefined;
  }
}
