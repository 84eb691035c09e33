import "server-only";
import { log as logger } from "@/lib/observability/log";
import type { Db } from "@/db/client";
import { grantInstanceAdmin } from "@/db/queries/instance-admins";
import { deleteSetting, takeSetting, writeSetting } from "@/db/queries/settings";
import { DEFAULT_TEAM, getTeam, setMemberRole } from "@/db/queries/teams";
import { countUsers, findUserByEmail, proveAddress } from "@/db/queries/users";
import { publicOrigin } from "@/lib/auth/origin";
import { teamCreationPolicy, type TeamRole } from "@/lib/auth/policy";
import { hashSecretToken, newLinkSecret } from "@/lib/auth/tokens";
import { ToolshedError } from "@/lib/errors";
import { createPasswordUser, MIN_PASSWORD_LENGTH, passwordMatches, setPassword } from "./auth";

const SETUP_LINK_HASH = "setup_link_hash";

type Env = Record<string, string | undefined>;

/**
 * At start: with TOOLSHED_ADMIN_EMAIL and TOOLSHED_ADMIN_PASSWORD, that person exists, has that
 * password and is an admin of the default team and an instance admin. Otherwise, while nobody has
 * an account, a fresh one-time setup link is printed to the log (each start replaces the previous link).
 */
export async function bootstrapAccounts(db: Db, env: Env = process.env, log: (line: string) => void = (line) => logger.info(line)): Promise<void> {
  // A misspelt TOOLSHED_TEAM_CREATION stops the start, not the first attempt to create a team.
  teamCreationPolicy(env);
  const email = env.TOOLSHED_ADMIN_EMAIL?.trim();
  const password = env.TOOLSHED_ADMIN_PASSWORD;
  if (email || password) {
    if (!email || !password) throw new Error("Set both TOOLSHED_ADMIN_EMAIL and TOOLSHED_ADMIN_PASSWORD, or neither.");
    await ensureAdmin(db, email, password);
    await deleteSetting(db, SETUP_LINK_HASH);
    log(`Toolshed: ${email} is an instance admin and an admin of team "${DEFAULT_TEAM}" (TOOLSHED_ADMIN_EMAIL).`);
    return;
  }
  if ((await countUsers(db)) > 0) {
    await deleteSetting(db, SETUP_LINK_HASH);
    return;
  }
  const secret = newLinkSecret();
  await writeSetting(db, SETUP_LINK_HASH, hashSecretToken(secret));
  log(`Toolshed has no accounts yet. Open this one-time link to create the first admin:\n  ${publicOrigin(env)}/setup?token=${secret}`);
}

async function ensureAdmin(db: Db, email: string, password: string): Promise<void> {
  checkPassword(password, "TOOLSHED_ADMIN_PASSWORD");
  const existing = await findUserByEmail(db, email);
  // The operator vouches for the address: whatever was set up on an unproven account for it goes.
  if (existing) await proveAddress(db, existing.id);
  const user = existing ?? (await createPasswordUser({ email, name: email.split("@")[0], password }));
  if (existing && !(await passwordMatches(existing.id, password))) await setPassword(existing.id, password);
  await setMemberRole(db, DEFAULT_TEAM, user.id, "admin");
  await grantInstanceAdmin(db, user.id, "TOOLSHED_ADMIN_EMAIL");
}

function checkPassword(password: string, field = "password"): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ToolshedError("bad_request", `A password has at least ${MIN_PASSWORD_LENGTH} characters.`, field);
  }
}

/** Uses the setup link once: creates the first admin (of the default team, and of the instance). */
export async function completeSetup(db: Db, secret: string, input: { email: string; name: string; password: string }): Promise<void> {
  checkPassword(input.password);
  if ((await countUsers(db)) > 0 || !(await takeSetting(db, SETUP_LINK_HASH, hashSecretToken(secret)))) {
    throw new ToolshedError(
      "not_found",
      "This setup link is not valid any more: it was used, or the server was restarted (see its log for the current link).",
      "token",
    );
  }
  const user = await createPasswordUser(input);
  await setMemberRole(db, DEFAULT_TEAM, user.id, "admin");
  await grantInstanceAdmin(db, user.id, "setup link");
}

export async function setupLinkOpen(db: Db): Promise<boolean> {
  return (await countUsers(db)) === 0;
}

/**
 * Provisioning without a browser (the CLI's `user create`): a person with a password and a role in
 * an existing team. An e-mail that has an account already is refused (409), never taken over.
 */
export async function provisionUser(
  db: Db,
  input: { email: string; password: string; teamId: string; role: TeamRole },
): Promise<{ id: string; email: string }> {
  checkPassword(input.password);
  await getTeam(db, input.teamId);
  if (await findUserByEmail(db, input.email)) throw new ToolshedError("conflict", `${input.email} has an account already.`, "email");
  const user = await createPasswordUser({ email: input.email, name: input.email.split("@")[0], password: input.password });
  await setMemberRole(db, input.teamId, user.id, input.role);
  return user;
}
