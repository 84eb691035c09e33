/** What changed between two versions of a tool's input schema, property by property, in words. */

export interface SchemaChange {
  /** The property ("id", "filter.status"), or "(schema)" for the schema's own keywords. */
  path: string;
  kind: "added" | "removed" | "changed";
  /** For an added or removed property, what it is ("string, required — The order's id."); for a changed one, each difference. */
  details: string[];
}

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema => (value && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : {});
const requiredOf = (schema: Schema) => new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []);
const shown = (value: unknown) => (value === undefined ? "—" : JSON.stringify(value));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A property in words: its type, whether it is required, its description. */
function described(property: unknown, required: boolean): string {
  const { type, description } = asSchema(property);
  const kind = Array.isArray(type) ? type.join(" | ") : typeof type === "string" ? type : "any type";
  return `${kind}${required ? ", required" : ""}${typeof description === "string" && description ? ` — ${description}` : ""}`;
}

/** The keywords of one schema level that differ, besides its properties and which of them are required (compared one by one). */
function keywordChanges(from: Schema, to: Schema): string[] {
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((key) => key !== "properties" && key !== "required");
  return keys.filter((key) => !same(from[key], to[key])).map((key) => `${key}: ${shown(from[key])} → ${shown(to[key])}`);
}

function compare(from: Schema, to: Schema, at: string): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const own = keywordChanges(from, to);
  if (own.length > 0) changes.push({ path: at || "(schema)", kind: "changed", details: own });
  const [fromProperties, toProperties] = [asSchema(from.properties), asSchema(to.properties)];
  const [fromRequired, toRequired] = [requiredOf(from), requiredOf(to)];
  for (const name of [...new Set([...Object.keys(fromProperties), ...Object.keys(toProperties)])]) {
    const path = at ? `${at}.${name}` : name;
    if (!Object.hasOwn(toProperties, name)) {
      changes.push({ path, kind: "removed", details: [described(fromProperties[name], fromRequired.has(name))] });
    } else if (!Object.hasOwn(fromProperties, name)) {
      changes.push({ path, kind: "added", details: [described(toProperties[name], toRequired.has(name))] });
    } else {
      const nested = compare(asSchema(fromProperties[name]), asSchema(toProperties[name]), path);
      if (fromRequired.has(name) !== toRequired.has(name)) {
        const requiredChange = toRequired.has(name) ? "now required" : "no longer required";
        const itself = nested.find((change) => change.path === path);
        if (itself) itself.details.unshift(requiredChange);
        else nested.unshift({ path, kind: "changed", details: [requiredChange] });
      }
      changes.push(...nested);
    }
  }
  return changes;
}

/** Each property added, removed or changed (nested object properties by their dotted path), and the schema's own keywords that changed. */
export function schemaChanges(before: unknown, after: unknown): SchemaChange[] {
  return compare(asSchema(before), asSchema(after), "");
}
