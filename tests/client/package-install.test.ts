/**
 * @toolshed/client as a user gets it: `npm pack` builds it (prepack) into a tarball that installs
 * in an empty folder outside the repository, with its JavaScript and its types, and runs there.
 * Installing needs the npm registry (or npm's cache) for its peer `ai`, as any install does.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const PACKAGE_DIR = path.join(process.cwd(), "packages", "client");
const TSC = path.join(process.cwd(), "node_modules", ".bin", "tsc");

describe("@toolshed/client from its tarball", () => {
  it("builds when packed, not when installed: a consumer needs no TypeScript", () => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8"));
    expect(manifest.scripts.prepare).toBeUndefined();
    expect(manifest.scripts.prepack).toMatch(/tsc/);
  });

  it("installs in an empty folder outside the repository, runs, and ships its types", { timeout: 240_000 }, async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "toolshed-client-"));
    const { stdout } = await run("npm", ["pack", "--pack-destination", scratch, "--silent"], { cwd: PACKAGE_DIR });
    const tarball = path.join(scratch, stdout.trim().split("\n").at(-1) ?? "");
    expect(existsSync(tarball)).toBe(true);

    const consumer = path.join(scratch, "consumer");
    await run("mkdir", [consumer]);
    writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", type: "module", private: true }));
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], { cwd: consumer });
    expect(existsSync(path.join(consumer, "node_modules", "ai"))).toBe(true);

    writeFileSync(
      path.join(consumer, "use.ts"),
      [
        'import { createToolshed, type ToolshedOptions } from "@toolshed/client";',
        'const options: ToolshedOptions = { baseUrl: "http://127.0.0.1:9", token: "tsk_example", catalog: "demo" };',
        "const toolshed = createToolshed(options);",
        "console.log(typeof toolshed.aiSdkTools, typeof toolshed.toolSearch);",
      ].join("\n"),
    );
    // The consumer's own TypeScript check finds the package's shipped declarations.
    await run(TSC, ["--noEmit", "--strict", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", "--skipLibCheck", "use.ts"], {
      cwd: consumer,
    });
    const ran = await run(process.execPath, ["--input-type=module", "-e", 'import("@toolshed/client").then((m) => console.log(typeof m.createToolshed))'], {
      cwd: consumer,
    });
    expect(ran.stdout.trim()).toBe("function");
  });
});
