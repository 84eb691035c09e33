/**
 * Toolshed's command line for scripts and operators, on the configured database (TOOLSHED_DB, or
 * TOOLSHED_DATABASE_URL's PostgreSQL database):
 *
 *   npm run --silent toolshed -- token create --team default --scope read --name ci
 *   npm run --silent toolshed -- token list --team default
 *   npm run --silent toolshed -- token revoke --team default --id <id>
 *
 * `token create` prints the new token alone on standard output; everything else goes to stderr.
 */
import { parseArgs } from "node:util";
import { closeDb, getDb } from "../db/client";
import { createApiToken, listApiTokens, revokeApiToken } from "../db/queries/api-tokens";
import { TOKEN_SCOPES, type TokenScope } from "../lib/auth/policy";
import { ToolshedError } from "../lib/errors";

const USAGE = `Usage:
  toolshed token create --team <team> --scope <read|write|admin> --name <name>
  toolshed token list --team <team>
  toolshed token revoke --team <team> --id <token id>`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { team: { type: "string" }, scope: { type: "string" }, name: { type: "string" }, id: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [noun, verb] = positionals;
  if (values.help || noun !== "token" || !verb) fail(USAGE);
  if (!values.team) fail(`--team is required.\n${USAGE}`);
  const db = getDb();
  try {
    if (verb === "create") {
      const scope = values.scope as TokenScope;
      if (!TOKEN_SCOPES.includes(scope)) fail(`--scope must be one of ${TOKEN_SCOPES.join(", ")}.`);
      if (!values.name) fail("--name is required.");
      const { token, secret } = await createApiToken(db, values.team, { name: values.name, scope }, "cli");
      process.stderr.write(`Created ${token.scope} token "${token.name}" (${token.id}) for team "${token.teamId}". It is shown only this once.\n`);
      process.stdout.write(`${secret}\n`);
    } else if (verb === "list") {
      for (const token of await listApiTokens(db, values.team)) {
        process.stdout.write(
          `${token.id}\t${token.name}\t${token.scope}\t${token.prefix}…\t${token.revokedAt ? "revoked" : "active"}\tlast used ${token.lastUsedAt ?? "never"}\n`,
        );
      }
    } else if (verb === "revoke") {
      if (!values.id) fail("--id is required.");
      await revokeApiToken(db, values.team, values.id);
      process.stderr.write(`Revoked token ${values.id}.\n`);
    } else fail(USAGE);
  } finally {
    // A PostgreSQL pool would keep the process running.
    await closeDb(db);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  fail(error instanceof ToolshedError ? error.message : String(error));
});
