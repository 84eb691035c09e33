"use client";

import { useRouter } from "next/navigation";
import { useRef } from "react";
import { toast } from "sonner";
import { cloneCatalogAction } from "@/app/actions";
import type { CatalogSummary } from "@/db/queries/catalogs";
import type { TeamChoice } from "./catalog-manager";
import { SaveFailure, useSaveAction } from "./save-state";

/** Clones a catalog (tools, rules, agents, MCP servers) into one of the teams the person is admin of, then opens the copy. */
export function CatalogCloneForm({ catalog, teams, onCancel }: { catalog: CatalogSummary; teams: TeamChoice[]; onCancel: () => void }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const { pending, failure, save } = useSaveAction();
  const defaultTeam = teams.find((team) => team.id === catalog.teamId)?.id ?? teams[0].id;
  return (
    <form
      ref={form}
      className="stack"
      data-testid={`clone-form-${catalog.id}`}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        save(
          () => cloneCatalogAction(catalog.id, { name: String(data.get("name")), team: String(data.get("team")) }),
          (created) => {
            toast.success(`Catalog "${catalog.name}" cloned as "${created.name}"`);
            router.push(`/catalogs/${created.id}/tools`);
          },
        );
      }}
      onKeyDown={(event) => event.key === "Escape" && onCancel()}
    >
      {/* biome-ignore lint/a11y/noAutofocus: the form opens in place of the card when the person asks to clone: the focus goes where they are about to type */}
      <input name="name" defaultValue={`${catalog.name} (copy)`} aria-label="Name of the copy" autoFocus required maxLength={80} />
      {teams.length > 1 ? (
        <select name="team" aria-label="Team of the copy" defaultValue={defaultTeam} data-testid="clone-team">
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      ) : (
        <input type="hidden" name="team" value={defaultTeam} />
      )}
      <SaveFailure failure={failure} what="the copy" onRetry={() => form.current?.requestSubmit()} pending={pending} />
      <div className="row end">
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={pending} data-testid={`clone-submit-${catalog.id}`}>
          {pending ? "Cloning…" : "Clone"}
        </button>
      </div>
    </form>
  );
}
