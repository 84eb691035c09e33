import "server-only";
import { log } from "@/lib/observability/log";
import { cimd } from "@better-auth/cimd";
import { fetchClientMetadataResource } from "@better-auth/cimd/node";
import { oauthProvider } from "@better-auth/oauth-provider";
import { betterAuth } from "better-auth";
import { createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { jwt } from "better-auth/plugins";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { authDatabaseAdapter } from "@/db/auth-adapter";
import { getDb } from "@/db/client";
import { userIsInstanceAdmin } from "@/db/queries/instance-admins";
import { hasOpenInvitationFor } from "@/db/queries/teams";
import { countSignInMethods, findUser, proveAddress } from "@/db/queries/users";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { dynamicClientRegistrationEnabled, OAUTH_SCOPES } from "@/lib/auth/oauth";
import { configuredOrigins, publicOrigin } from "@/lib/auth/origin";
import { signInProvidersFromEnv } from "@/lib/auth/sign-in-providers";
import { deriveKey } from "@/lib/secrets";
import { guardAuthorizationRequest, requireGatewayRoles } from "./oauth-resources";

export const MIN_PASSWORD_LENGTH = 10;

/**
 * Accounts may be created only by an invitation to their e-mail, by the first-start setup link or
 * by the operator's environment; this set holds the e-mails our own code is creating right now.
 */
const approvedSignUps = new Set<string>();

function createAuth() {
  const providers = signInProvidersFromEnv();
  return betterAuth({
    appName: "Toolshed",
    baseURL: publicOrigin(),
    trustedOrigins: configuredOrigins(),
    secret: deriveKey("better-auth session signing").toString("base64url"),
    database: authDatabaseAdapter(getDb()),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: MIN_PASSWORD_LENGTH, maxPasswordLength: 256 },
    socialProviders: providers.github ? { github: providers.github } : {},
    account: {
      // An account whose address is unproven (made through an invitation link) is linked to the
      // provider's sign-in all the same: the link proves the address (see proveAddressOnProviderLink).
      accountLinking: { requireLocalEmailVerified: false },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Password sign-in has our own limits and lockout (./sign-in-guard); the rest keep better-auth's,
    // keyed on the client address our server writes (never on a header the client chose).
    rateLimit: { enabled: true, window: 60, max: 100, customRules: { "/sign-in/email": false } },
    // better-auth skips its Origin checks under a test runner by default: checked always, so the
    // tests see the cross-site refusals production has (e.g. a forged OAuth consent).
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] }, disableOriginCheck: false },
    // The other endpoints that check a password: Toolshed's pages do not use them. And the JWT
    // plugin's /token, which would sign a JWT for any session: its keys sign OAuth access tokens only.
    disabledPaths: ["/change-password", "/verify-password", "/delete-user", "/token"],
    telemetry: { enabled: false },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const email = user.email.toLowerCase();
            if (approvedSignUps.has(email) || (await hasOpenInvitationFor(getDb(), email))) return;
            return false;
          },
        },
      },
      account: { create: { before: proveAddressOnProviderLink } },
    },
    hooks: { before: createAuthMiddleware(beforeAuthorizationRequest) },
    plugins: [genericOAuth({ config: providers.oidc ? [providers.oidc] : [] }), ...oauthServerPlugins(), nextCookies()],
  });
}

/** Authorization requests go past ./oauth-resources first: sign-in before anything, and no catalog probing. */
async function beforeAuthorizationRequest(context: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]): Promise<void> {
  if (context.path !== "/oauth2/authorize") return;
  const session = await getSessionFromCtx(context);
  const signIn = await guardAuthorizationRequest(session?.user.id, context.query);
  if (signIn) throw context.redirect(signIn);
}

/**
 * Toolshed as the authorization server of its catalog gateways (issue 27; lib/auth/oauth.ts):
 * authorization code with PKCE (S256) and refresh tokens, no client credentials (a token is always
 * some person's); JWT access tokens for the one gateway the client names (`resource`), signed with
 * the JWT plugin's keys and checked in-process by the gateway (./oauth.ts). Clients are known by
 * their Client ID Metadata Document (CIMD, the MCP profile); self-registration (DCR) only when the
 * operator turns it on. Any client may ask for any catalog's gateway (enforcePerClientResources
 * off): whether the person may use that catalog, and with which scopes, is decided by their role
 * in its team, on the consent page and again by the gateway on every request.
 */
function oauthServerPlugins() {
  const selfRegistration = dynamicClientRegistrationEnabled();
  return [
    jwt({ disableSettingJwtHeader: true }),
    oauthProvider({
      loginPage: "/sign-in",
      consentPage: "/oauth/consent",
      scopes: [...OAUTH_SCOPES],
      grantTypes: ["authorization_code", "refresh_token"],
      enforcePerClientResources: false,
      // The provider's client endpoints (create, update, list, delete clients) would otherwise be
      // open to every signed-in person: they are the operator's, like everything outside the teams.
      clientPrivileges: async ({ user }) => user !== undefined && (await userIsInstanceAdmin(getDb(), user.id)),
      allowDynamicClientRegistration: selfRegistration,
      allowUnauthenticatedClientRegistration: selfRegistration,
      // MCP clients are native apps that often leave application_type out (loopback redirects).
      clientRegistrationDefaultApplicationType: "infer",
      // Adds no claims: refuses tokens for catalogs the person has no role in (any more).
      customAccessTokenClaims: async ({ user, resources }) => {
        await requireGatewayRoles(user?.id, resources);
        return {};
      },
      // A client retrying a refresh whose answer it lost gets the same answer, not a revoked family.
      refreshTokenReuseInterval: 30,
    }),
    cimd({ fetchClientMetadataResource, metadataProfile: "mcp-2026-07-28" }),
  ];
}

/**
 * A sign-in provider is being linked to a person who has a way of signing in already. better-auth
 * links only when the provider says the address is verified (no provider is configured as trusted
 * without that claim), so the address is proven now, and what was set up on the account without
 * proof goes: a password chosen through an invitation link, another provider's link, its sessions.
 * Whoever squatted the address is locked out; the new link and the session it brings stay.
 * A provider's sign-up (no way of signing in yet) is left alone: its own claim sets emailVerified.
 */
async function proveAddressOnProviderLink(account: { userId: string; providerId: string }): Promise<void> {
  const db = getDb();
  if (account.providerId === "credential" || (await countSignInMethods(db, account.userId)) === 0) return;
  if (await proveAddress(db, account.userId)) {
    const user = await findUser(db, account.userId);
    log.warn(
      `Sign-in with ${account.providerId} proved the address ${user?.email} of account ${account.userId}: its earlier password, links and sessions were removed.`,
    );
  }
}

type Auth = ReturnType<typeof createAuth>;
const cache = globalThis as unknown as { toolshedAuth?: { auth: Auth; db: unknown } };

/** The sign-in library, created on first use (never during `next build`), bound to the app's database. */
export function getAuth(): Auth {
  const db = getDb();
  if (cache.toolshedAuth?.db !== db) cache.toolshedAuth = { auth: createAuth(), db };
  return cache.toolshedAuth.auth;
}

/**
 * Creates a person with an e-mail and password, bypassing public sign-up (which is off). The
 * operator's paths (setup link, TOOLSHED_ADMIN_EMAIL, the CLI) vouch for the address; an invitation
 * link does not (whoever opened it may not own the address): it passes `addressProven: false`.
 */
export async function createPasswordUser(
  input: { email: string; name: string; password: string },
  { addressProven }: { addressProven: boolean } = { addressProven: true },
): Promise<{ id: string; email: string }> {
  const email = input.email.trim().toLowerCase();
  const context = await getAuth().$context;
  approvedSignUps.add(email);
  try {
    const user = await context.internalAdapter.createUser({ email, name: input.name.trim() || email, emailVerified: addressProven }, { method: "admin" });
    if (!user) throw new Error(`Could not create the account for ${email}.`);
    await context.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: await context.password.hash(input.password),
    });
    return { id: user.id, email };
  } finally {
    approvedSignUps.delete(email);
  }
}

/**
 * Sets a new password for an existing person (the operator's TOOLSHED_ADMIN_PASSWORD at start) and
 * ends their sessions: whoever signed in before, with another password, is not the operator's admin.
 */
export async function setPassword(userId: string, password: string): Promise<void> {
  const context = await getAuth().$context;
  const hash = await context.password.hash(password);
  const accounts = await context.internalAdapter.findAccounts(userId);
  if (accounts.some((account) => account.providerId === "credential")) await context.internalAdapter.updatePassword(userId, hash);
  else await context.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
  await context.internalAdapter.deleteUserSessions(userId);
}

/** Checks a password the way sign-in does (for confirming the operator's admin at start). */
export async function passwordMatches(userId: string, password: string): Promise<boolean> {
  const context = await getAuth().$context;
  const credential = (await context.internalAdapter.findAccounts(userId)).find((account) => account.providerId === "credential");
  return !!credential?.password && (await context.password.verify({ hash: credential.password, password }));
}
