/**
 * Toolshed's command line for scripts and operators, on the configured database (TOOLSHED_DB, or
 * TOOLSHED_DATABASE_URL's PostgreSQL database):
 *
 *   npm run --silent toolshed -- token create --team default --scope read --name ci
 *   npm run --silent toolshed -- token list --team default
 *   npm run --silent toolshed -- token revoke --team default --id <id>
 *   npm run --silent toolshed -- user create --email ada@example.com --password '…' --team default --role editor
 *   npm run --silent toolshed -- instance-admin grant --email ada@example.com
 *
 * `token create` prints the new token alone on standard output, `user create` the new user's id;
 * everything else goes to stderr. A token of scope `instance` is made only here.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { provisionUser } from "../app/_services/bootstrap";
import { closeDb, type Db, getDb } from "../db/client";
import { createApiToken, listApiTokens, revokeApiToken } from "../db/queries/api-tokens";
import { grantInstanceAdmin, listInstanceAdmins, revokeInstanceAdmin } from "../db/queries/instance-admins";
import { findUserByEmail } from "../db/queries/users";
import { isTeamRole, TEAM_ROLES, TOKEN_SCOPES, type TokenScope } from "../lib/auth/policy";
import { ToolshedError } from "../lib/errors";

const USAGE = `Usage:
  toolshed token create --team <team> --scope <${TOKEN_SCOPES.join("|")}> --name <name>
  toolshed token list --team <team>
  toolshed token revoke --team <team> --id <token id>
  toolshed user create --email <e-mail> --password <password> --team <team> --role <${TEAM_ROLES.join("|")}>
  toolshed instance-admin grant|revoke --email <e-mail>
  toolshed instance-admin list`;

type Options = Partial<Record<"team" | "scope" | "name" | "id" | "email" | "password" | "role", string>>;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function required(values: Options, option: keyof Options): string {
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

const COMMANDS: Record<string, (db: Db, verb: string, values: Options) => Promise<void>> = { token, user, "instance-admin": instanceAdmin };

async function main(argv: string[]): Promise<void> {
  const text = { type: "string" } as const;
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { team: text, scope: text, name: text, id: text, email: text, password: text, role: text, help: { type: "boolean", short: "h" } },
  });
  const [noun, verb] = positionals;
  const command = Object.hasOwn(COMMANDS, noun ?? "") ? COMMANDS[noun] : undefined;
  if (values.help || !command || !verb) fail(USAGE);
  const db = getDb();
  try {
    await command(db, verb, values);
  } finally {
    // A PostgreSQL pool would keep the process running.
    await closeDb(db);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  fail(error instanceof ToolshedError ? error.message : String(error));
});
