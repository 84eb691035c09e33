import { z } from "zod";

/** What the sign-in, setup and invitation forms send. */
export const signInBody = z.strictObject({
  email: z.email("Enter an e-mail address.").max(254),
  password: z.string().min(1, "Enter your password.").max(256),
});

export const setupBody = z.strictObject({
  email: z.email("Enter an e-mail address.").max(254),
  name: z.string().trim().min(1, "Enter your name.").max(100),
  password: z.string().max(256),
});

/** A path on this site to return to after signing in; anything else means the home page. */
export function safeReturnPath(path: string | null | undefined): string {
  return path?.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/";
}
