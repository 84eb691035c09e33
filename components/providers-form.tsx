"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { type UseFormRegister, useFieldArray, useForm } from "react-hook-form";
import { rulesBody } from "@/lib/api-schemas";
import type { ProviderProfile } from "@/lib/rules/providers";
import type { FieldError } from "@/lib/tools/validate";
import { FieldErrors, groupProblems } from "./field-errors";
import { useRulesSave } from "./rules-save";
import { SaveFailure } from "./save-state";
import { ActionsHeading, WideTable } from "./wide-table";

/** The form's values are the very part of the rules the server checks. */
const providersForm = rulesBody.pick({ providers: true, searchServiceConfigured: true }).required();

type ProvidersValues = { providers: ProviderProfile[]; searchServiceConfigured: boolean };

/** The providers' problems show together under the table; each field with some is described by them. */
const PROVIDER_ERRORS = "providers";

export function ProvidersForm({ catalogId, initial, searchService }: { catalogId: string; initial: ProviderProfile[]; searchService: boolean }) {
  const form = useForm({
    defaultValues: { providers: initial, searchServiceConfigured: searchService },
    resolver: zodResolver(providersForm),
    shouldFocusError: false,
  });
  const rows = useFieldArray({ control: form.control, name: "providers" });
  // watch, not useWatch: read with the rows in the same render, an added provider is there at once.
  const providers = form.watch("providers");
  const { pending, failure, problems, submit } = useRulesSave(catalogId, form, "Providers saved");
  return (
    <section className="panel stack" data-testid="providers">
      <div>
        <h2 style={{ margin: 0 }}>Providers</h2>
        <p className="muted small">
          <code>websearch</code> is offered only where the provider searches natively, or to every model once a search service is configured.
        </p>
      </div>
      <WideTable testId="providers-table">
        <table className="sticky-actions" data-testid="providers-table">
          <thead>
            <tr>
              <th>Id</th>
              <th>Name</th>
              <th>Native web search</th>
              <ActionsHeading />
            </tr>
          </thead>
          <tbody>
            {rows.fields.map((row, index) => (
              <ProviderRow
                key={row.id}
                index={index}
                id={providers[index].id}
                register={form.register}
                onRemove={() => rows.remove(index)}
                problems={problems}
              />
            ))}
          </tbody>
        </table>
      </WideTable>
      <label className="row" style={{ fontWeight: 400 }}>
        <input type="checkbox" {...form.register("searchServiceConfigured")} data-testid="search-service" />A search service is configured for this catalog
        (every model may get <code>websearch</code>)
      </label>
      <FieldErrors problems={problems} fieldId={PROVIDER_ERRORS} />
      <SaveFailure failure={failure} what="the providers" onRetry={submit} pending={pending} />
      <div className="row end">
        <button type="button" onClick={() => rows.append({ id: "new-provider", name: "New provider", webSearch: false }, { shouldFocus: false })}>
          Add provider
        </button>
        <button type="button" className="primary" disabled={pending} onClick={submit}>
          Save providers
        </button>
      </div>
    </section>
  );
}

/** One provider of the table; `id` is its id as typed, which names the row and its checkbox. */
function ProviderRow({
  index,
  id,
  register,
  onRemove,
  problems,
}: {
  index: number;
  id: string;
  register: UseFormRegister<ProvidersValues>;
  onRemove: () => void;
  problems: FieldError[];
}) {
  const { invalid } = groupProblems(problems, `providers.${index}`, PROVIDER_ERRORS);
  return (
    <tr data-testid={`provider-${id}`}>
      <td>
        <input aria-label="Provider id" {...register(`providers.${index}.id`)} className="mono" {...invalid("id")} />
      </td>
      <td>
        <input aria-label="Provider name" {...register(`providers.${index}.name`)} {...invalid("name")} />
      </td>
      <td>
        <input type="checkbox" aria-label={`${id} searches natively`} {...register(`providers.${index}.webSearch`)} />
      </td>
      <td>
        <button type="button" className="small-button danger" onClick={onRemove}>
          Remove
        </button>
      </td>
    </tr>
  );
}
