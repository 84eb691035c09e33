"use client";

import type { McpHealthChange } from "@/db/queries/mcp-health";
import type { McpHealthState } from "@/lib/sources/mcp/health";
import { withContentKeys } from "./content-keys";
import { formatInstant, LocalTime } from "./local-time";
import { RelativeTime } from "./relative-time";

const STATE_CLASS: Record<McpHealthState, string> = { connected: "ok", "held-back": "warn", starting: "starting", failing: "off" };
const STATE_LABEL: Record<McpHealthState, string> = { connected: "connected", "held-back": "held back", starting: "starting", failing: "failing" };

/**
 * A server's last changes of health under its row of the Sources page: a strip of marks, oldest
 * to newest (each says its state, time and cause on hover), and how long it has been in its
 * current state; opened, the changes with their times and causes, newest first.
 */
export function McpHealthRow({ name, changes, now }: { name: string; changes: McpHealthChange[]; now: number }) {
  const [latest] = changes;
  if (!latest) return null;
  const keyed = withContentKeys(changes, (change) => `${change.at} ${change.state}`);
  return (
    <tr className="sources-error-row">
      <td colSpan={7}>
        <details className="mcp-health small" data-testid={`mcp-health-${name}`}>
          <summary>
            <span className="muted">Health:</span>{" "}
            <span className="mcp-health-strip" role="img" aria-label={`Last ${changes.length} changes of health, oldest first`}>
              {[...keyed].reverse().map(([key, change]) => (
                <span key={key} className={`mcp-health-mark ${STATE_CLASS[change.state]}`} title={markTitle(change)} data-state={change.state} />
              ))}
            </span>{" "}
            <span data-testid={`mcp-health-now-${name}`}>
              {STATE_LABEL[latest.state]} since <RelativeTime iso={latest.at} now={now} />
            </span>
          </summary>
          <ol className="mcp-health-list">
            {keyed.map(([key, change]) => (
              <li key={key}>
                <span className={`badge ${STATE_CLASS[change.state]}`}>{STATE_LABEL[change.state]}</span> <LocalTime iso={change.at} />
                {change.cause && (
                  <>
                    {": "}
                    <span className="sources-pre">{change.cause}</span>
                  </>
                )}
              </li>
            ))}
          </ol>
        </details>
      </td>
    </tr>
  );
}

/** In UTC, saying so: the server renders it too, and knows no viewer's time zone. */
function markTitle(change: McpHealthChange): string {
  return `${STATE_LABEL[change.state]}, ${formatInstant(change.at, "UTC")} UTC${change.cause ? `: ${change.cause}` : ""}`;
}
