import { ruleChanges } from "../rules/rule-changes";

/**
 * What a restore of a version from the history will change, in sentences a person reads before
 * confirming it ("renames send_mail back to sendMail", "changes its description"), and what it
 * will not (a tool's definition that its source owns). Nothing in `changes`: the restore would
 * write nothing.
 */
export interface RestorePreview {
  changes: string[];
  notes: string[];
}

type Fields = Record<string, unknown>;

/** The tool as it is now, as far as a restore looks at it. */
interface ToolState {
  name: string;
  source: string;
  summary: string;
  description: string;
  inputSchema: unknown;
  tags: string[];
  enabled: boolean;
  heldBack?: string;
}

const differs = (a: unknown, b: unknown) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
const list = (value: unknown) => (Array.isArray(value) && value.length > 0 ? value.map(String).join(", ") : "none");

const TOOL_FIELD_CHANGES: [field: string, sentence: string][] = [
  ["summary", "changes its summary"],
  ["description", "changes its description"],
  ["inputSchema", "changes its input schema"],
];

/** A tool the restore would bring back; `current` is the tool as it is now (undefined: it is gone, and is created again). */
export function toolRestorePreview(tool: ToolState | undefined, restored: Fields): RestorePreview {
  const name = String(restored.name);
  if (!tool) return { changes: [`creates the custom tool ${name} again`], notes: [] };
  const current: Fields & ToolState = { ...tool };
  const managed = current.source !== "custom";
  const changes: string[] = [];
  if (!managed && restored.name !== undefined && restored.name !== current.name) changes.push(`renames ${current.name} back to ${name}`);
  if (!managed)
    for (const [field, sentence] of TOOL_FIELD_CHANGES) if (restored[field] !== undefined && differs(restored[field], current[field])) changes.push(sentence);
  if (restored.tags !== undefined && differs(restored.tags, current.tags)) changes.push(`sets its tags to ${list(restored.tags)} (now ${list(current.tags)})`);
  if (typeof restored.enabled === "boolean" && restored.enabled !== current.enabled) changes.push(restored.enabled ? "enables it" : "disables it");
  const notes: string[] = [];
  if (managed) {
    notes.push(
      `Its definition (summary, description, input schema) comes from its ${current.source} source: a restore brings back only its tags and whether it is enabled.`,
    );
  }
  if (current.heldBack) notes.push("A change of its definition by its server is held back for review: approve or reject it on the tool's page.");
  return { changes, notes };
}

const AGENT_FIELDS: [field: string, sentence: string][] = [
  ["mode", "changes its mode"],
  ["description", "changes its description"],
  ["permissions", "changes its permissions"],
  ["baseTools", "changes its base tools"],
];

/** An agent the restore would bring back, under the name the history entry is about. */
export function agentRestorePreview(agent: object | undefined, restored: object, subject: string): RestorePreview {
  const name = String((restored as Fields).name);
  const current: Fields | undefined = agent && { ...agent };
  const wanted: Fields = { ...restored };
  if (!current) return { changes: [`creates the agent ${name} again`], notes: [] };
  const changes: string[] = [];
  if (name !== subject) changes.push(`renames the agent ${subject} back to ${name}`);
  for (const [field, sentence] of AGENT_FIELDS) if (differs(wanted[field], current[field])) changes.push(sentence);
  return { changes, notes: [] };
}

/** A part of the rules the restore would bring back: each rule it adds, removes or changes, by name. */
export function rulesRestorePreview(part: string, current: unknown, restored: unknown): RestorePreview {
  const changes = ruleChanges(part, current, restored).map(
    (change) =>
      `${change.kind === "added" ? "adds" : change.kind === "removed" ? "removes" : "changes"} ${change.subject}${change.details.length > 0 ? ` (${change.details.join("; ")})` : ""}`,
  );
  return { changes, notes: [] };
}
