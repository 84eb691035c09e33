import { createPasswordUser, getAuth } from "@/app/_services/auth";
import type { Db } from "@/db/client";
import { grantInstanceAdmin } from "@/db/queries/instance-admins";
import { rolesOfUser, setMemberRole } from "@/db/queries/teams";
import { findUserByEmail } from "@/db/queries/users";
import type { TeamRole, UserPrincipal } from "@/lib/auth/policy";
import { APP_ORIGIN } from "./helpers";

const TEST_PASSWORD = "correct horse battery";

/** Creates a person with a role in a team (and an instance admin, if asked), signs them in, and returns the Cookie header of their session. */
export async function signedInAs(db: Db, email: string, role: TeamRole | null, teamId = "default", options: { instanceAdmin?: boolean } = {}): Promise<string> {
  const user = await createPasswordUser({ email, name: email.split("@")[0], password: TEST_PASSWORD });
  if (role) await setMemberRole(db, teamId, user.id, role);
  if (options.instanceAdmin) await grantInstanceAdmin(db, user.id, "tests");
  const { headers } = await getAuth().api.signInEmail({ body: { email, password: TEST_PASSWORD }, returnHeaders: true });
  const cookie = headers.getSetCookie().map((line) => line.split(";")[0]);
  if (cookie.length === 0) throw new Error("Signing in set no cookie");
  return cookie.join("; ");
}

/** A person signed in with a role in team "default": their session's Cookie header, and the principal the policies see (their roles now). */
export async function signedInPerson(db: Db, email: string, role: TeamRole = "viewer"): Promise<{ cookie: string; principal: UserPrincipal }> {
  const cookie = await signedInAs(db, email, role);
  const user = (await findUserByEmail(db, email))!;
  return { cookie, principal: { kind: "user", id: user.id, email, name: user.name, roles: await rolesOfUser(db, user.id), instanceAdmin: false } };
}

/** The headers a page of ours sends with a write: the session cookie, JSON, our own Origin. */
export function browserHeaders(cookie: string): Record<string, string> {
  return { cookie, origin: APP_ORIGIN, "content-type": "application/json" };
}
