/**
 * A throwaway PostgreSQL for tests and benchmarks, from Debian's `postgresql` package: a new data
 * directory in a temporary folder, trust authentication, listening on a free port of 127.0.0.1
 * (its unix socket in the folder), fsync off. `startPostgres()` returns its URL and `stop()`, which
 * shuts it down and removes the folder.
 *
 * `npx tsx scripts/postgres-server.ts` prints the URL and runs until Ctrl-C.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";

export interface PostgresServer {
  /** postgres://… of its database, for TOOLSHED_DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

const DATABASE = "toolshed";
const SUPERUSER = "postgres";
const READY_TIMEOUT_MS = 30_000;

/** The folder with initdb and postgres: pg_config's, else the newest of Debian's versions. */
function serverBinaries(): string {
  const hasServer = (dir: string) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "postgres"));
  const configured = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const candidates = [configured.status === 0 ? configured.stdout.trim() : ""];
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(debian, version, "bin")));
  }
  const found = candidates.find((dir) => dir !== "" && hasServer(dir));
  if (!found)
    throw new Error("PostgreSQL's server programs (initdb, postgres) were not found: install Debian's postgresql package (apt-get install postgresql).");
  return found;
}

/** initdb and the server refuse to run as root: there they run as the postgres system user. */
const asRoot = process.getuid?.() === 0;
const command = (program: string, args: string[]): [string, string[]] => (asRoot ? ["runuser", ["-u", SUPERUSER, "--", program, ...args]] : [program, args]);

function run(file: string, args: string[]): void {
  const result = spawnSync(file, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${[file, ...args].join(" ")} failed: ${result.error?.message ?? result.stderr}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export async function startPostgres(): Promise<PostgresServer> {
  const bin = serverBinaries();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolshed-pg-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  let server: ChildProcess | undefined;
  try {
    if (asRoot) run("chown", [`${SUPERUSER}:`, dir]);
    // The C locale orders text by bytes, as SQLite does.
    run(...command(path.join(bin, "initdb"), ["-D", data, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"]));
    const port = await freePort();
    const settings = ["fsync=off", "synchronous_commit=off", "full_page_writes=off", "listen_addresses=127.0.0.1"];
    const [file, argv] = command(path.join(bin, "postgres"), ["-D", data, "-p", String(port), "-k", dir, ...settings.flatMap((setting) => ["-c", setting])]);
    const logFd = fs.openSync(log, "a");
    server = spawn(file, argv, { stdio: ["ignore", logFd, logFd] });
    fs.closeSync(logFd);
    const connection = ["-h", "127.0.0.1", "-p", String(port), "-U", SUPERUSER];
    await waitUntilReady(path.join(bin, "pg_isready"), connection, server, log);
    run(path.join(bin, "createdb"), [...connection, DATABASE]);
    const running = server;
    return {
      url: `postgres://${SUPERUSER}@127.0.0.1:${port}/${DATABASE}`,
      stop: async () => {
        await shutDown(running, data);
        removeDir();
      },
    };
  } catch (error) {
    if (server) await shutDown(server, data);
    removeDir();
    throw error;
  }
}

async function waitUntilReady(pgIsReady: string, connection: string[], server: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (spawnSync(pgIsReady, [...connection, "-q"]).status !== 0) {
    if (exited(server) || Date.now() > deadline) {
      throw new Error(`PostgreSQL did not start: ${fs.readFileSync(log, "utf8").trim() || (exited(server) ? "it exited" : "timed out")}`);
    }
    await sleep(50);
  }
}

/**
 * A fast shutdown (SIGINT) sent to the postmaster itself, whose pid its data directory records:
 * as root the child is runuser, which need not pass the signal on.
 */
async function shutDown(server: ChildProcess, data: string): Promise<void> {
  if (exited(server)) return;
  const done = new Promise((resolve) => server.once("exit", resolve));
  const pidFile = path.join(data, "postmaster.pid");
  const postmaster = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]) : undefined;
  try {
    if (postmaster) process.kill(postmaster, "SIGINT");
    else server.kill("SIGINT");
  } catch (error) {
    // Ctrl-C reached the server too, and it is gone already.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
  await done;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const server = await startPostgres();
  process.stdout.write(`${server.url}\n`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
