import { readdirSync, readFileSync } from "node:fs";

/** The process and its descendants (next start runs the server in a child). */
function processTree(rootPid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/** Sums `read(pid)` over the tree, skipping processes that ended meanwhile. */
function sumOverTree(rootPid: number, read: (pid: number) => number): number {
  let total = 0;
  for (const pid of processTree(rootPid)) {
    try {
      total += read(pid);
    } catch {
      // Gone.
    }
  }
  return total;
}

/** Resident memory of the process tree, in bytes. */
export function treeRss(rootPid: number): number {
  return sumOverTree(rootPid, (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) the process tree has used so far, in ms: /proc/<pid>/stat's utime and stime. */
export function treeCpuMs(rootPid: number): number {
  return sumOverTree(rootPid, (pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  });
}
