import { z } from "zod";
import { TEAM_ROLES, TEAM_TOKEN_SCOPES } from "./auth/policy";
import { safeName } from "./safe-text";

/** Request bodies of the team API and the team pages' server actions, validated once at the edge. */
export const createTeamBody = z.strictObject({
  name: safeName().trim().min(1, "Name the team.").max(80, "A team name is at most 80 characters."),
  id: safeName().trim().min(1).max(48).optional(),
});

export const memberRoleBody = z.strictObject({
  role: z.enum(TEAM_ROLES, "A role is viewer, editor or admin."),
});

export const invitationBody = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email("Give the e-mail address of the person to invite.").max(254)),
  role: z.enum(TEAM_ROLES, "A role is viewer, editor or admin."),
});

export const apiTokenBody = z.strictObject({
  name: safeName().trim().min(1, "Name the token, e.g. ci.").max(64, "A token name is at most 64 characters."),
  scope: z.enum(TEAM_TOKEN_SCOPES, {
    error: (issue) =>
      issue.input === "instance" || issue.input === "metrics"
        ? `A token of scope ${issue.input} is made only on the command line, by the operator: npm run --silent toolshed -- token create --team <team> --scope ${issue.input} --name <name>.`
        : "A scope is read, write or admin.",
  }),
});

/** The account an invitation link creates: its e-mail comes from the invitation, never from the form. */
export function invitedAccountBody(minPasswordLength: number) {
  return z
    .strictObject({
      name: safeName().trim().min(1, "Give your name.").max(100),
      password: z.string().min(minPasswordLength, `A password is at least ${minPasswordLength} characters.`).max(256),
      confirm: z.string().max(256),
    })
    .refine((body) => body.password === body.confirm, { message: "The passwords differ.", path: ["confirm"] });
}
