import "server-only";
import { readdirSync, readFileSync } from "node:fs";

/** A process as /proc describes it; the start time tells it apart from a later process given the same id. */
interface ProcessEntry {
  pid: number;
  parent: number;
  startTime: string;
}

function readProcess(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // Exited meanwhile.
  }
  // "pid (command) state ppid ... starttime ...": the command may contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pid, parent: Number(fields[1]), startTime: fields[19] };
}

/**
 * The process and all its descendants. MCP servers are often started through wrappers
 * (`npx`, `uvx`, `sh -c`, `tsx`) that do not pass signals on, so signalling the child alone
 * would orphan the real server, which then keeps the pipes open. Reads /proc, so Linux only.
 */
function processTree(root: number): ProcessEntry[] {
  const rootEntry = readProcess(root);
  if (rootEntry === undefined) return [];
  const children = new Map<number, ProcessEntry[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProcess(Number(name));
    if (entry === undefined) continue;
    const siblings = children.get(entry.parent) ?? [];
    siblings.push(entry);
    children.set(entry.parent, siblings);
  }
  const tree = [rootEntry];
  for (let index = 0; index < tree.length; index++) tree.push(...(children.get(tree[index].pid) ?? []));
  return tree;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to the whole tree now; SIGKILL after the grace period to those of it still running. */
export function terminateProcessTree(root: number, graceMs: number): void {
  if (process.platform !== "linux") {
    // Without /proc only the child is known; the SDK's close follows up with SIGKILL for it.
    signal(root, "SIGTERM");
    return;
  }
  const tree = processTree(root);
  for (const { pid } of tree) signal(pid, "SIGTERM");
  setTimeout(() => {
    for (const entry of tree) {
      if (readProcess(entry.pid)?.startTime === entry.startTime) signal(entry.pid, "SIGKILL");
    }
  }, graceMs).unref();
}
