"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { createCatalogAction, deleteCatalogAction, updateCatalogAction } from "@/app/actions";
import type { CatalogSummary } from "@/db/queries/catalogs";
import type { TeamRole } from "@/lib/auth/policy";
import { catalogWarnings } from "@/lib/warnings";
import { CatalogCloneForm } from "./catalog-clone-form";
import { ConfirmButton } from "./confirm-button";
import { SaveFailure, useSaveAction, useUnsavedChangesWarning } from "./save-state";
import { WarningList } from "./warning-list";

export interface TeamChoice {
  id: string;
  name: string;
  role: TeamRole;
}

export function CatalogManager({ catalogs, teams }: { catalogs: CatalogSummary[]; teams: TeamChoice[] }) {
  const writable = teams.filter((team) => team.role !== "viewer");
  // A catalog may be cloned into any team the person is admin of.
  const cloneTeams = teams.filter((team) => team.role === "admin");
  const roleIn = new Map(teams.map((team) => [team.id, team.role]));
  return (
    <div className="stack">
      {writable.length > 0 ? (
        <CreateCatalogForm teams={writable} />
      ) : (
        <p className="muted small" data-testid="no-create-rights">
          {teams.length === 0
            ? "You are not in a team yet: ask a team admin for an invitation."
            : "Your role is viewer in every team you belong to: you can look at catalogs but not create them."}
        </p>
      )}
      {catalogs.length === 0 ? (
        <div className="panel empty" data-testid="catalogs-empty">
          <strong>No catalogs yet</strong>
          Create one above to start curating tools.
        </div>
      ) : (
        <div className="cards" data-testid="catalog-list">
          {catalogs.map((catalog) => (
            <CatalogCard key={catalog.id} catalog={catalog} role={roleIn.get(catalog.teamId) ?? "viewer"} cloneTeams={cloneTeams} />
          ))}
        </div>
      )}
    </div>
  );
}

function CreateCatalogForm({ teams }: { teams: TeamChoice[] }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const { pending, failure, save } = useSaveAction();
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesWarning(dirty);
  return (
    <form
      ref={form}
      className="panel row"
      data-testid="create-catalog"
      onChange={(event) => {
        const data = new FormData(event.currentTarget);
        setDirty(!!(String(data.get("name")).trim() || String(data.get("description")).trim()));
      }}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        save(
          () => createCatalogAction({ name: String(data.get("name")), description: String(data.get("description")), team: String(data.get("team")) }),
          (created) => {
            setDirty(false);
            form.current?.reset();
            toast.success(`Catalog "${created.name}" created`);
            router.push(`/catalogs/${created.id}/tools`);
          },
        );
      }}
    >
      <div className="field" style={{ flex: "0 0 240px" }}>
        <label htmlFor="catalog-name">New catalog</label>
        <input id="catalog-name" name="name" placeholder="Name, e.g. Payments agents" required maxLength={80} aria-invalid={!!failure} />
      </div>
      {teams.length > 1 ? (
        <div className="field" style={{ flex: "0 0 160px" }}>
          <label htmlFor="catalog-team">Team</label>
          <select id="catalog-team" name="team" data-testid="catalog-team" defaultValue={teams.find((team) => team.id === "default")?.id ?? teams[0].id}>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <input type="hidden" name="team" value={teams[0].id} />
      )}
      <div className="field" style={{ flex: 1 }}>
        <label htmlFor="catalog-description">Description</label>
        <input id="catalog-description" name="description" placeholder="What these agents do (optional)" maxLength={2000} />
      </div>
      <button type="submit" className="primary" disabled={pending} style={{ alignSelf: "flex-end" }}>
        {pending ? "Creating…" : "Create catalog"}
      </button>
      <div style={{ flexBasis: "100%" }}>
        <SaveFailure failure={failure} what="the new catalog" onRetry={() => form.current?.requestSubmit()} pending={pending} />
      </div>
    </form>
  );
}

function CatalogCard({ catalog, role, cloneTeams }: { catalog: CatalogSummary; role: TeamRole; cloneTeams: TeamChoice[] }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [cloning, setCloning] = useState(false);
  // Held by the card, not the form, so a refused rename is still shown when the form is opened again.
  const rename = useSaveAction();
  const deletion = useSaveAction();
  const remove = () =>
    deletion.save(
      () => deleteCatalogAction(catalog.id),
      () => {
        toast.success(`Catalog "${catalog.name}" deleted`);
        router.refresh();
      },
      (error) => toast.error(`Could not delete "${catalog.name}": ${error.message}`, { action: { label: "Retry", onClick: remove } }),
    );
  return (
    <div className="card" data-testid={`catalog-${catalog.id}`}>
      {cloning ? (
        <CatalogCloneForm catalog={catalog} teams={cloneTeams} onCancel={() => setCloning(false)} />
      ) : editing ? (
        <CatalogRenameForm catalog={catalog} rename={rename} onClose={() => setEditing(false)} />
      ) : (
        <CatalogCardView
          catalog={catalog}
          role={role}
          mayClone={cloneTeams.length > 0}
          onClone={() => setCloning(true)}
          onRename={() => setEditing(true)}
          onDelete={remove}
        />
      )}
    </div>
  );
}

function CatalogRenameForm({ catalog, rename, onClose }: { catalog: CatalogSummary; rename: ReturnType<typeof useSaveAction>; onClose: () => void }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const { pending, failure, save } = rename;
  return (
    <form
      ref={form}
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        save(
          () => updateCatalogAction(catalog.id, { name: String(data.get("name")), description: String(data.get("description")) }),
          () => {
            toast.success("Catalog renamed");
            onClose();
            router.refresh();
          },
        );
      }}
      onKeyDown={(event) => event.key === "Escape" && onClose()}
    >
      {/* biome-ignore lint/a11y/noAutofocus: the form opens in place of the name when the user asks to rename: the focus goes where they are about to type */}
      <input name="name" defaultValue={catalog.name} aria-label="Catalog name" autoFocus required maxLength={80} />
      <input name="description" defaultValue={catalog.description} aria-label="Catalog description" maxLength={2000} />
      <SaveFailure failure={failure} what={`"${catalog.name}"`} onRetry={() => form.current?.requestSubmit()} pending={pending} />
      <div className="row end">
        <button type="button" className="ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={pending}>
          Save
        </button>
      </div>
    </form>
  );
}

interface CardViewProps {
  catalog: CatalogSummary;
  role: TeamRole;
  mayClone: boolean;
  onClone: () => void;
  onRename: () => void;
  onDelete: () => void;
}

/** The catalog at a glance, and the actions the person's role allows. */
function CatalogCardView({ catalog, role, mayClone, onClone, onRename, onDelete }: CardViewProps) {
  return (
    <>
      <div className="spread">
        <Link className="title" href={`/catalogs/${catalog.id}/tools`}>
          {catalog.name}
        </Link>
        <span className="row">
          <span className="badge" title="Owning team">
            {catalog.teamId}
          </span>
          <code className="faint">{catalog.id}</code>
        </span>
      </div>
      <p className="muted small">{catalog.description || "No description."}</p>
      <WarningList warnings={catalogWarnings(catalog)} testId={`catalog-warnings-${catalog.id}`} />
      <div className="row">
        <span className="stat">
          <b>{catalog.toolCount}</b> tools
        </span>
        <span className="stat">
          <b>{catalog.enabledCount}</b> enabled
        </span>
        <span className="stat">
          rev <b>{catalog.revision}</b>
        </span>
      </div>
      <div className="row end">
        {mayClone && (
          <button type="button" className="small-button" onClick={onClone} data-testid={`clone-catalog-${catalog.id}`}>
            Clone
          </button>
        )}
        {role !== "viewer" && (
          <button type="button" className="small-button" onClick={onRename}>
            Rename
          </button>
        )}
        {role === "admin" && (
          <ConfirmButton
            label="Delete"
            className="danger small-button"
            testId={`delete-catalog-${catalog.id}`}
            title={`Delete "${catalog.name}"?`}
            body={<>This deletes its {catalog.toolCount} tools and their history. It cannot be undone.</>}
            confirmLabel="Delete catalog"
            onConfirm={onDelete}
          />
        )}
      </div>
    </>
  );
}
