import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/**
 * An argument that makes a server's command line unique, so that its processes can be found in
 * /proc (Linux): servers ignore arguments they do not know, and no server writes its process id
 * to a file of our choosing.
 */
export const processMarker = (label: string) => `--${label}-${randomUUID()}`;

/** Processes whose command line mentions `marker`: none may exist after a refusal. */
export function processesMentioning(marker: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The one process whose command line mentions `marker`; throws when there is none, or more than one. */
export function processMentioning(marker: string): number {
  const pids = processesMentioning(marker);
  if (pids.length !== 1) throw new Error(`expected one process mentioning ${marker}, found ${pids.length}`);
  return pids[0];
}
