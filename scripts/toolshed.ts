/**
 * Toolshed's command line for scripts and operators, on the configured database (TOOLSHED_DB, or
 * TOOLSHED_DATABASE_URL's PostgreSQL database):
 *
 *   npm run --silent toolshed -- token create --team default --scope read --name ci
 *   npm run --silent toolshed -- token list --team default
 *   npm run --silent toolshed -- token revoke --team default --id <id>
 *   npm run --silent toolshed -- user create --email ada@example.com --password '…' --team default --role editor
 *   npm run --silent toolshed -- instance-admin grant --email ada@example.com
 *   npm run --silent toolshed -- export --catalog demo --format yaml > demo.catalog.yaml
 *   npm run --silent toolshed -- apply -f demo.catalog.yaml --catalog demo --dry-run
 *   npm run --silent toolshed -- backup --out backups/toolshed-2026-12-04.db
 *   npm run --silent toolshed -- restore --from backups/toolshed-2026-12-04.db
 *
 * `token create` prints the new token alone on standard output, `user create` the new user's id,
 * `export` the catalog file, `apply` its plan; everything else goes to stderr. A token of scope
 * `instance` is made only here. `backup` runs beside the server; `restore` only once every server
 * and worker on the database has stopped.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { provisionUser } from "../app/_services/bootstrap";
import { backupSqlite, restoreSqlite } from "../db/backup";
import { closeDb, databaseFile, type Db, getDb } from "../db/client";
import { usesPostgres } from "../db/dialect";
import { applyCatalogCode, planCatalogApply, readCatalogContents } from "../db/queries/catalog-apply";
import { createApiToken, listApiTokens, revokeApiToken } from "../db/queries/api-tokens";
import { grantInstanceAdmin, listInstanceAdmins, revokeInstanceAdmin } from "../db/queries/instance-admins";
import { findUserByEmail } from "../db/queries/users";
import { isTeamRole, TEAM_ROLES, TOKEN_SCOPES, type TokenScope } from "../lib/auth/policy";
import { type ApplySummary, isEmptyPlan } from "../lib/catalogs/apply-plan";
import { buildCatalogCode, formatCatalogCode, parseCatalogCode, readCatalogCodeText } from "../lib/catalogs/catalog-code";
import { CATALOG_CODE_FORMATS, type CatalogCodeFormat } from "../lib/catalogs/code-format";
import { ToolshedError } from "../lib/errors";

const USAGE = `Usage:
  toolshed token create --team <team> --scope <${TOKEN_SCOPES.join("|")}> --name <name>
  toolshed token list --team <team>
  toolshed token revoke --team <team> --id <token id>
  toolshed user create --email <e-mail> --password <password> --team <team> --role <${TEAM_ROLES.join("|")}>
  toolshed instance-admin grant|revoke --email <e-mail>
  toolshed instance-admin list
  toolshed export --catalog <catalog> [--format ${CATALOG_CODE_FORMATS.join("|")}]
  toolshed apply -f <file, or - for standard input> --catalog <catalog> [--dry-run] [--prune]
  toolshed backup --out <file> [--force]
  toolshed restore --from <file> [--force]   (with every server and worker stopped)`;

type TextOption = "team" | "scope" | "name" | "id" | "email" | "password" | "role" | "catalog" | "format" | "file" | "out" | "from";
type Options = Partial<Record<TextOption, string>> & {
  "dry-run"?: boolean;
  prune?: boolean;
  force?: boolean;
};

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function required(values: Options, option: TextOption): string {
  const value = values[option];
  if (!value) fail(`--${option} is required.\n${USAGE}`);
  return value;
}

async function token(db: Db, verb: string, values: Options): Promise<void> {
  const team = required(values, "team");
  if (verb === "create") {
    const scope = values.scope as TokenScope;
    if (!TOKEN_SCOPES.includes(scope)) fail(`--scope must be one of ${TOKEN_SCOPES.join(", ")}.`);
    const { token, secret } = await createApiToken(db, team, { name: required(values, "name"), scope }, "cli");
    process.stderr.write(`Created ${token.scope} token "${token.name}" (${token.id}) for team "${token.teamId}". It is shown only this once.\n`);
    process.stdout.write(`${secret}\n`);
  } else if (verb === "list") {
    for (const token of await listApiTokens(db, team)) {
      process.stdout.write(
        `${token.id}\t${token.name}\t${token.scope}\t${token.prefix}…\t${token.revokedAt ? "revoked" : "active"}\tlast used ${token.lastUsedAt ?? "never"}\n`,
      );
    }
  } else if (verb === "revoke") {
    const id = required(values, "id");
    await revokeApiToken(db, team, id);
    process.stderr.write(`Revoked token ${id}.\n`);
  } else fail(USAGE);
}

async function user(db: Db, verb: string, values: Options): Promise<void> {
  if (verb !== "create") fail(USAGE);
  const email = z.email().safeParse(required(values, "email").trim().toLowerCase());
  if (!email.success) fail(`--email is not an e-mail address.`);
  const role = required(values, "role");
  if (!isTeamRole(role)) fail(`--role must be one of ${TEAM_ROLES.join(", ")}.`);
  const created = await provisionUser(db, { email: email.data, password: required(values, "password"), teamId: required(values, "team"), role });
  process.stderr.write(`Created ${created.email}, ${role} of team "${values.team}".\n`);
  process.stdout.write(`${created.id}\n`);
}

async function instanceAdmin(db: Db, verb: string, values: Options): Promise<void> {
  if (verb === "list") {
    for (const admin of await listInstanceAdmins(db)) process.stdout.write(`${admin.email}\tgranted by ${admin.grantedBy}\t${admin.since}\n`);
    return;
  }
  if (verb !== "grant" && verb !== "revoke") fail(USAGE);
  const email = required(values, "email");
  const found = await findUserByEmail(db, email);
  if (!found) fail(`No account has the e-mail ${email}.`);
  if (verb === "grant") await grantInstanceAdmin(db, found.id, "cli");
  else await revokeInstanceAdmin(db, found.id);
  process.stderr.write(`${found.email} is ${verb === "grant" ? "now" : "no longer"} an instance admin.\n`);
}

async function exportCatalog(db: Db, values: Options): Promise<void> {
  const format = (values.format ?? "yaml") as CatalogCodeFormat;
  if (!CATALOG_CODE_FORMATS.includes(format)) fail(`--format must be one of ${CATALOG_CODE_FORMATS.join(", ")}.`);
  process.stdout.write(formatCatalogCode(buildCatalogCode(await readCatalogContents(db, required(values, "catalog"))), format));
}

/** The plan, one line each: + created, ~ changed (its fields), - deleted, ? pending (why), then how many are unchanged. */
function planLines(plan: ApplySummary): string {
  return [
    ...plan.created.map((name) => `+ ${name}`),
    ...plan.changed.map(({ name, fields }) => `~ ${name} (${fields.join(", ")})`),
    ...plan.deleted.map((name) => `- ${name}`),
    ...plan.pending.map(({ name, reason }) => `? ${name}: ${reason}`),
    `${plan.unchanged} unchanged`,
    "",
  ].join("\n");
}

/** Applies a catalog file; its `${env:NAME}` secrets are read from this command's environment. */
async function apply(db: Db, values: Options): Promise<void> {
  const file = required(values, "file");
  const catalog = required(values, "catalog");
  const document = parseCatalogCode(readCatalogCodeText(readFileSync(file === "-" ? 0 : file, "utf8")));
  const options = { prune: values.prune === true };
  if (values["dry-run"]) {
    process.stdout.write(planLines(await planCatalogApply(db, catalog, document, options)));
    process.stderr.write("Dry run: nothing was written.\n");
    return;
  }
  const applied = await applyCatalogCode(db, catalog, document, { ...options, env: process.env }, "cli");
  process.stdout.write(planLines(applied.plan));
  if (isEmptyPlan(applied.plan)) process.stderr.write(`Nothing to change: catalog "${catalog}" is at revision ${applied.revision}.\n`);
  else process.stderr.write(`Applied to catalog "${catalog}": revision ${applied.revision}.\n`);
  if (applied.mcpServers.length > 0) process.stderr.write(`The server connects MCP servers ${applied.mcpServers.join(", ")} at its next periodic sync.\n`);
}

const COMMANDS: Record<string, (db: Db, verb: string, values: Options) => Promise<void>> = { token, user, "instance-admin": instanceAdmin };
/** Commands of one word. */
const SINGLE_COMMANDS: Record<string, (db: Db, values: Options) => Promise<void>> = { export: exportCatalog, apply };

const POSTGRES_BACKUPS = `This Toolshed runs on PostgreSQL (TOOLSHED_DATABASE_URL): its backups are PostgreSQL's own.
  Back up:  pg_dump --format=custom --file toolshed.dump "$TOOLSHED_DATABASE_URL"
  Restore:  stop every Toolshed instance, then
            pg_restore --clean --if-exists --no-owner --dbname "$TOOLSHED_DATABASE_URL" toolshed.dump
            npm run db:migrate   (brings an older dump to this release's schema)`;

/** `backup` and `restore`: on the SQLite file itself (TOOLSHED_DB), never through a connection the app would open. */
async function fileCommand(command: "backup" | "restore", values: Options): Promise<void> {
  if (usesPostgres()) {
    process.stderr.write(`${POSTGRES_BACKUPS}\n`);
    process.exit(1);
  }
  const database = databaseFile();
  if (command === "backup") {
    const out = required(values, "out");
    const { bytes } = await backupSqlite(database, out, { force: values.force });
    process.stderr.write(
      `Backed up ${database} to ${out} (${bytes} bytes), one consistent snapshot. Keep the secret key (TOOLSHED_SECRET_KEY, or the file TOOLSHED_SECRET_KEY_FILE names) safe too: without it the MCP servers' stored secrets cannot be read.\n`,
    );
    return;
  }
  const from = required(values, "from");
  process.stderr.write(`Restoring ${from} over ${database}: every Toolshed server and import worker on it must be stopped.\n`);
  const restored = await restoreSqlite(from, database, { force: values.force });
  const migrated = restored.missing ? `, migrated forward by ${restored.missing} migration(s)` : "";
  const kept = restored.previous ? ` The previous database is kept as ${restored.previous}.` : "";
  process.stderr.write(`Restored ${from} to ${database}${migrated}.${kept} Start the server again.\n`);
}

async function main(argv: string[]): Promise<void> {
  const text = { type: "string" } as const;
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      team: text,
      scope: text,
      name: text,
      id: text,
      email: text,
      password: text,
      role: text,
      catalog: text,
      format: text,
      file: { type: "string", short: "f" },
      "dry-run": { type: "boolean" },
      prune: { type: "boolean" },
      out: text,
      from: text,
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [noun, verb] = positionals;
  if ((noun === "backup" || noun === "restore") && !values.help) return fileCommand(noun, values);
  const single = Object.hasOwn(SINGLE_COMMANDS, noun ?? "") ? SINGLE_COMMANDS[noun] : undefined;
  const command = Object.hasOwn(COMMANDS, noun ?? "") ? COMMANDS[noun] : undefined;
  const run = single && verb === undefined ? (db: Db) => single(db, values) : command && verb ? (db: Db) => command(db, verb, values) : undefined;
  if (values.help || !run) fail(USAGE);
  const db = getDb();
  try {
    await run(db);
  } finally {
    // A PostgreSQL pool would keep the process running.
    await closeDb(db);
  }
}

/** A refusal with every problem on its own line (a catalog file's, each at its path in the file). */
function describeError(error: unknown): string {
  if (!(error instanceof ToolshedError)) return String(error);
  if (!error.problems || error.problems.length < 2) return error.message;
  return [error.message.split(":")[0], ...error.problems.map((problem) => `  ${problem.field}: ${problem.message}`)].join("\n");
}

// A reader that stops early (`toolshed export … | head`) closes the pipe: the output is done, not failed.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

main(process.argv.slice(2)).catch((error: unknown) => {
  fail(describeError(error));
});
