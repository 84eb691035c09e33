/**
 * The MCP gateway's sessions (Mcp-Session-Id → session), in memory. A session belongs to the
 * caller that opened it: anyone else naming its id is told it does not exist. Sessions idle
 * longer than `idleMs` are closed, and a caller holds at most `perCaller` of them: opening one
 * more closes its least recently used (many MCP clients never end their sessions).
 */

export interface Closable {
  close(): Promise<void>;
}

interface Entry<S> {
  owner: string;
  session: S;
  lastUsed: number;
}

export interface SessionLimits {
  idleMs: number;
  perCaller: number;
}

export class GatewaySessions<S extends Closable> {
  private readonly entries = new Map<string, Entry<S>>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The session, if it exists, is `owner`'s and has not expired; it counts as used now. */
  get(id: string, owner: string): S | undefined {
    this.closeIdle();
    const entry = this.entries.get(id);
    if (entry === undefined || entry.owner !== owner) return undefined;
    entry.lastUsed = this.now();
    return entry.session;
  }

  add(id: string, owner: string, session: S): void {
    this.closeIdle();
    const own = [...this.entries].filter(([, entry]) => entry.owner === owner).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [oldest] of own.slice(0, Math.max(0, own.length - this.limits.perCaller + 1))) this.close(oldest);
    this.entries.set(id, { owner, session, lastUsed: this.now() });
  }

  /** Forgets a session (it ended) without closing it again. */
  remove(id: string): void {
    this.entries.delete(id);
  }

  /** Closes and forgets a session. */
  close(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    void entry.session.close().catch(() => undefined);
  }

  closeIdle(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [id, entry] of this.entries) if (entry.lastUsed < cutoff) this.close(id);
  }

  closeAll(): void {
    for (const id of [...this.entries.keys()]) this.close(id);
  }
}
