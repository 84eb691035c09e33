/**
 * A change of one part of the rules (model rules, providers, definition overrides, the search
 * setting) as a person reads it: each rule by its name (a model rule's, a provider's, an
 * override's tool and models), never by its internal id, with what was added to or removed from
 * each of its lists. The history and the restore confirmation show these.
 */

export interface RuleChange {
  /** What changed, by its name: `model rule “Patch-preferring GPT models”`. */
  subject: string;
  kind: "added" | "removed" | "changed";
  /** What of it changed: `disable: + write, − edit`; for an added or removed rule, what it holds. */
  details: string[];
}

type Item = Record<string, unknown>;

export const RULE_PART_LABELS: Record<string, string> = {
  modelRules: "Model rules",
  providers: "Providers",
  overrides: "Definition overrides",
  searchServiceConfigured: "Web search service",
};

const SINGULAR: Record<string, string> = { modelRules: "model rule", providers: "provider", overrides: "override" };

const asItems = (value: unknown): Item[] => (Array.isArray(value) ? value.filter((item): item is Item => item !== null && typeof item === "object") : []);

/** What identifies an element across versions: the id a person never sees, or for an override its tool and models. */
function identity(part: string, item: Item): string {
  if (part === "overrides") return `${String(item.tool)} ${JSON.stringify(item.models ?? [])}`;
  return String(item.id ?? item.name);
}

function nameOf(part: string, item: Item): string {
  if (part === "overrides") {
    const models = Array.isArray(item.models) && item.models.length > 0 ? ` for ${item.models.join(", ")}` : " for every model";
    return `${SINGULAR[part]} of ${String(item.tool)}${models}`;
  }
  return `${SINGULAR[part] ?? part} “${String(item.name ?? item.id)}”`;
}

const shown = (value: unknown) => (typeof value === "string" ? `“${value}”` : value === undefined ? "—" : JSON.stringify(value));

/** One field's change: a list as what it gained and lost, anything else as before → after. */
function fieldChange(field: string, before: unknown, after: unknown): string | undefined {
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  if (Array.isArray(before) || Array.isArray(after)) {
    const from = (Array.isArray(before) ? before : []).map(String);
    const to = (Array.isArray(after) ? after : []).map(String);
    const gained = to.filter((value) => !from.includes(value)).map((value) => `+ ${value}`);
    const lost = from.filter((value) => !to.includes(value)).map((value) => `− ${value}`);
    const moves = [...gained, ...lost];
    return `${field}: ${moves.length > 0 ? moves.join(", ") : "reordered"}`;
  }
  return `${field}: ${shown(before)} → ${shown(after)}`;
}

/** What an added or removed rule holds: its lists and settings, without its id. */
function contents(item: Item): string[] {
  return Object.entries(item)
    .filter(([key, value]) => key !== "id" && key !== "name" && key !== "tool" && !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : shown(value)}`);
}

function changedItem(part: string, before: Item, after: Item): RuleChange | undefined {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => key !== "id");
  const details = keys.flatMap((key) => fieldChange(key, before[key], after[key]) ?? []);
  return details.length > 0 ? { subject: nameOf(part, after), kind: "changed", details } : undefined;
}

/** The changes between two versions of a part of the rules, rule by rule, by name; an order change says so. */
export function ruleChanges(part: string, before: unknown, after: unknown): RuleChange[] {
  if (!Array.isArray(before) && !Array.isArray(after)) {
    const detail = fieldChange("value", before, after);
    return detail ? [{ subject: RULE_PART_LABELS[part] ?? part, kind: "changed", details: [detail.replace(/^value: /, "")] }] : [];
  }
  const from = asItems(before);
  const to = asItems(after);
  const previous = new Map(from.map((item) => [identity(part, item), item]));
  const next = new Set(to.map((item) => identity(part, item)));
  const changes: RuleChange[] = [];
  for (const item of to) {
    const old = previous.get(identity(part, item));
    const change = old ? changedItem(part, old, item) : { subject: nameOf(part, item), kind: "added" as const, details: contents(item) };
    if (change) changes.push(change);
  }
  for (const item of from) if (!next.has(identity(part, item))) changes.push({ subject: nameOf(part, item), kind: "removed", details: contents(item) });
  const order = (items: Item[]) => items.map((item) => identity(part, item)).filter((key) => previous.has(key) && next.has(key));
  if (changes.length === 0 && JSON.stringify(order(from)) !== JSON.stringify(order(to))) {
    changes.push({ subject: RULE_PART_LABELS[part] ?? part, kind: "changed", details: ["order changed"] });
  }
  return changes;
}
