import Link from "next/link";
import { type OverriddenField, overriddenFields, type UpstreamTool } from "@/lib/rules/override-fields";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import { withContentKeys } from "./content-keys";

const shown = (value: unknown) => (value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

const scopeOf = (override: DefinitionOverride) => (override.models.length === 0 ? "For every model" : `For models matching ${override.models.join(", ")}`);

/** The fields an override sets, its source's value beside the override's. */
function OverrideRows({ fields }: { fields: OverriddenField[] }) {
  return (
    <table className="small">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Upstream (its source)</th>
          <th scope="col">Override</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field.field} data-testid={`override-field-${field.field}`}>
            <th scope="row">
              <code>{field.field}</code>
            </th>
            <td className="diff-removed wrap-anywhere">{shown(field.upstream)}</td>
            <td className="diff-added wrap-anywhere">
              {shown(field.override)}
              {field.ignored && (
                <div className="faint" data-testid="override-ignored">
                  Not applied: {field.ignored}
                </div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The catalog's overrides of this tool, each field as its source defines it now beside what the
 * override sets: models get the override's, whatever its source says after a re-sync.
 */
export function ToolOverrides({ catalogId, tool, overrides }: { catalogId: string; tool: UpstreamTool; overrides: DefinitionOverride[] }) {
  if (overrides.length === 0) return null;
  return (
    <section className="panel stack" aria-labelledby="tool-overrides-title" data-testid="tool-overrides">
      <div className="spread">
        <h2 id="tool-overrides-title">Overridden by the catalog</h2>
        <Link className="small" href={`/catalogs/${catalogId}/rules`}>
          Edit overrides
        </Link>
      </div>
      <p className="muted small">These fields are the catalog&apos;s, not its source&apos;s: they stay when its source redefines the tool.</p>
      {/* Two overrides may share their models (the later one wins where they overlap): keys of their own. */}
      {withContentKeys(overrides, (override) => JSON.stringify(override.models)).map(([key, override]) => (
        <div key={key}>
          <h3>{scopeOf(override)}</h3>
          <OverrideRows fields={overriddenFields(tool, override)} />
        </div>
      ))}
    </section>
  );
}

/** The fields the catalog's overrides set, for the review of a change by its source: what the models get regardless. */
export function OverriddenNote({ tool, overrides }: { tool: UpstreamTool; overrides: DefinitionOverride[] }) {
  const fields = [...new Set(overrides.flatMap((override) => overriddenFields(tool, override).map((field) => field.field)))];
  if (fields.length === 0) return null;
  return (
    <p className="small" data-testid="overridden-note">
      <span className="badge warn">overridden</span> The catalog overrides {fields.map((field) => `“${field}”`).join(", ")}: models get the override&apos;s
      value there, whichever definition is approved.
    </p>
  );
}
