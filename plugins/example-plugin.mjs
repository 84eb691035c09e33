/**
 * An example Toolshed plugin. A plugin is a module in the plugins folder (TOOLSHED_PLUGINS_DIR,
 * ./plugins by default) whose default export (or export named `plugin`) has:
 *   name   — 1-32 lowercase letters, digits, '_' or '-';
 *   tools  — tools defined with zod: { name, description, args: a zod shape, summary? };
 *   hooks  — optional; "tool.definition"(tool, ctx) runs in the pipeline's last stage for each
 *            tool a model is about to see and returns the fields to replace (summary,
 *            description, inputSchema), or undefined to leave the tool as it is.
 * .mjs/.js plugins need nothing else; .ts plugins are loaded through tsx.
 */
import { z } from "zod";

const CHANGE_KINDS = ["added", "changed", "fixed", "removed", "security"];

export default {
  name: "release-helper",
  tools: [
    {
      name: "changelog_draft",
      description:
        "Drafts a Keep-a-Changelog style entry for a version from a list of changes. Each change has a kind (added, changed, fixed, removed, security) and a one-line text; the entry groups them by kind in that order and returns the Markdown without writing any file.",
      args: {
        version: z
          .string()
          .regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/)
          .describe("The version being released, e.g. 2.4.0."),
        date: z.iso.date().optional().describe("Release date (YYYY-MM-DD); today when omitted."),
        changes: z
          .array(
            z.object({
              kind: z.enum(CHANGE_KINDS).describe("Which section the change belongs to."),
              text: z.string().min(3).max(300).describe("The change, in the imperative, e.g. 'Rank exact name matches first'."),
            }),
          )
          .min(1)
          .max(200)
          .describe("The changes since the previous release."),
      },
    },
    {
      name: "semver_bump",
      summary: "Compute the next semantic version from the current one and the kinds of changes.",
      description:
        "Computes the next semantic version: major when any change is breaking, minor when a feature was added, patch otherwise. Use before changelog_draft when the user has not said which version to release.",
      args: {
        current: z
          .string()
          .regex(/^\d+\.\d+\.\d+$/)
          .describe("The current version, e.g. 2.3.1."),
        breaking: z.boolean().default(false).describe("Whether any change breaks compatibility."),
        features: z.boolean().default(false).describe("Whether any change adds a feature."),
      },
    },
  ],
  hooks: {
    // GPT models tend to chain shell commands with `cd`: remind them of the working directory rule.
    "tool.definition": (tool, ctx) => {
      if (tool.name !== "bash" || !/(^|\/)gpt-/i.test(ctx.modelId)) return undefined;
      return {
        description: `${tool.description}\n\nNote: prefer the workdir parameter over "cd <dir> &&" chains; otherwise a command runs in the session's working directory.`,
      };
    },
  },
};
