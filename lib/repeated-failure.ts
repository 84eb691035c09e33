/**
 * What to log of a task that runs every few hundred milliseconds and fails the same way while, say,
 * the database is unreachable: the first failure, a reminder at most once per interval with how many
 * there were since, and the recovery. Pure: the caller passes the time and writes the lines.
 */
export class RepeatedFailureLog {
  private failures = 0;
  private lastLoggedAt = 0;

  constructor(
    private readonly task: string,
    private readonly remindEveryMs = 60_000,
  ) {}

  /** The line to log for this failure, or null to stay quiet. */
  failed(error: unknown, now: number): string | null {
    this.failures += 1;
    if (this.failures > 1 && now - this.lastLoggedAt < this.remindEveryMs) return null;
    this.lastLoggedAt = now;
    const reason = error instanceof Error ? error.message : String(error);
    return this.failures === 1 ? `${this.task} failed: ${reason}` : `${this.task} still failing (${this.failures} times so far): ${reason}`;
  }

  /** The line to log when it works again after failing, or null when it had not failed. */
  succeeded(): string | null {
    if (this.failures === 0) return null;
    const line = `${this.task} works again after ${this.failures} ${this.failures === 1 ? "failure" : "failures"}`;
    this.failures = 0;
    return line;
  }
}
