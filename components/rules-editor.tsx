"use client";

import type { CatalogRules } from "@/lib/rules/catalog-rules";
import type { KnownModel } from "@/lib/rules/providers";
import { useCan } from "./catalog-access";
import { ModelRulesForm } from "./model-rules-form";
import { OverridesForm } from "./overrides-form";
import { ProvidersForm } from "./providers-form";

interface Props {
  catalogId: string;
  rules: CatalogRules;
  toolNames: string[];
  knownModels: KnownModel[];
  agents: string[];
}

/** The rules' three forms, each saving its own part. */
export function RulesEditor({ catalogId, rules, toolNames, knownModels, agents }: Props) {
  const canEdit = useCan("write");
  return (
    // A disabled fieldset makes every control read-only for viewers; .read-only hides the buttons.
    <fieldset className={canEdit ? "bare stack" : "bare stack read-only"} disabled={!canEdit} data-testid="rules-editor">
      {!canEdit && (
        <p className="muted small" data-testid="read-only-note">
          Your role can read the rules; editors change them.
        </p>
      )}
      <datalist id="tool-names">
        {toolNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ModelRulesForm catalogId={catalogId} initial={rules.modelRules} knownModels={knownModels} toolNames={toolNames} agents={agents} />
      <ProvidersForm catalogId={catalogId} initial={rules.providers} searchService={rules.searchServiceConfigured} />
      <OverridesForm catalogId={catalogId} initial={rules.overrides} toolNames={toolNames} />
    </fieldset>
  );
}
