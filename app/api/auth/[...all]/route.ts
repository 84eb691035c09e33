import { observed } from "@/app/_services/observed";
import { handleAuthRequest } from "@/app/_services/sign-in-guard";

/**
 * better-auth's endpoints: sign-in, sign-out, session, OAuth callbacks (public sign-up is off);
 * password sign-in goes through our lockout and limits.
 */
export const GET = observed(handleAuthRequest);
export const POST = observed(handleAuthRequest);
