"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef } from "react";
import { toast } from "sonner";
import { importToolsAction, updateToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import { useCan } from "./catalog-access";
import type { ToolRecord } from "@/db/queries/tools";
import { TOOL_SOURCES } from "@/lib/tools/types";
import { fetchTools, queryKeys } from "./api-client";

type StateFilter = "all" | "enabled" | "disabled";

function matches(tool: ToolRecord, words: string[]): boolean {
  const haystack = `${tool.name} ${tool.summary} ${tool.description} ${tool.tags.join(" ")}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function ToolTable({ catalogId }: { catalogId: string }) {
  const canEdit = useCan("write");
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const query = params.get("q") ?? "";
  const source = params.get("source") ?? "all";
  const state = (params.get("state") ?? "all") as StateFilter;
  const searchBox = useRef<HTMLInputElement>(null);
  const { data: tools, error, isPending } = useQuery({ queryKey: queryKeys.tools(catalogId), queryFn: () => fetchTools(catalogId) });

  useEffect(() => {
    const focusSearch = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key === "/" && !["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) {
        event.preventDefault();
        searchBox.current?.focus();
      }
    };
    window.addEventListener("keydown", focusSearch);
    return () => window.removeEventListener("keydown", focusSearch);
  }, []);

  const setParam = (key: string, value: string, fallback: string) => {
    const next = new URLSearchParams(params);
    if (value === fallback) next.delete(key);
    else next.set(key, value);
    const search = next.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };

  const visible = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return (tools ?? []).filter(
      (tool) =>
        (source === "all" || tool.source === source) &&
        (state === "all" || tool.enabled === (state === "enabled")) &&
        matches(tool, words),
    );
  }, [tools, query, source, state]);

  const counts = useMemo(() => {
    const bySource = new Map<string, number>();
    for (const tool of tools ?? []) bySource.set(tool.source, (bySource.get(tool.source) ?? 0) + 1);
    return bySource;
  }, [tools]);

  return (
    <div>
      <div className="toolbar">
        <input
          ref={searchBox}
          type="search"
          placeholder="Search name, summary, description, tags   ( / )"
          aria-label="Search tools"
          value={query}
          onChange={(event) => setParam("q", event.target.value, "")}
          data-testid="tool-search"
        />
        <select aria-label="Filter by source" value={source} onChange={(event) => setParam("source", event.target.value, "all")} data-testid="source-filter">
          <option value="all">All sources</option>
          {TOOL_SOURCES.map((name) => (
            <option key={name} value={name}>
              {name} ({counts.get(name) ?? 0})
            </option>
          ))}
        </select>
        <select aria-label="Filter by state" value={state} onChange={(event) => setParam("state", event.target.value, "all")} data-testid="state-filter">
          <option value="all">Enabled and disabled</option>
          <option value="enabled">Enabled only</option>
          <option value="disabled">Disabled only</option>
        </select>
        <span className="spacer" style={{ flex: 1 }} />
        {canEdit && <ImportButton catalogId={catalogId} />}
        <a className="button" href={`/api/catalogs/${catalogId}/export`} download data-testid="export-catalog">Export</a>
        {canEdit && <Link className="button primary" href={`/catalogs/${catalogId}/tools/new`} data-testid="new-tool">New tool</Link>}
      </div>
      {error ? (
        <div className="error-box" role="alert">Could not load tools: {error.message}</div>
      ) : isPending ? (
        <div className="panel empty">Loading tools…</div>
      ) : (
        <>
          <p className="muted small" data-testid="tool-count">
            Showing {visible.length} of {tools.length} tools
          </p>
          {visible.length === 0 ? (
            <div className="panel empty" data-testid="tools-empty">
              <strong>No tools match</strong>
              {tools.length > 0 && (
                <button type="button" className="ghost" onClick={() => router.replace(pathname, { scroll: false })}>Clear filters</button>
              )}
            </div>
          ) : (
            <div className="table-wrap">
              <table data-testid="tool-table">
                <thead>
                  <tr>
                    <th style={{ width: 60 }}>On</th>
                    <th>Name</th>
                    <th>Source</th>
                    <th>Summary</th>
                    <th>Tags</th>
                  </tr>
                </thead>
                <tbody>
                  {visible.map((tool) => (
                    <ToolRow key={tool.name} catalogId={catalogId} tool={tool} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function ToolRow({ catalogId, tool }: { catalogId: string; tool: ToolRecord }) {
  const toggle = useEnabledToggle(catalogId);
  return (
    <tr className={tool.enabled ? undefined : "disabled"} data-testid={`tool-row-${tool.name}`}>
      <td>
        <EnabledSwitch tool={tool} onToggle={(enabled) => toggle.mutate({ name: tool.name, enabled })} />
      </td>
      <td className="name">
        <Link href={`/catalogs/${catalogId}/tools/${encodeURIComponent(tool.name)}`}>{tool.name}</Link>
        {!tool.registered && <span className="badge off" style={{ marginLeft: 6 }}>unregistered</span>}
      </td>
      <td>
        <span className={`badge ${tool.source}`}>{tool.source}</span>
        {tool.source === "mcp" && tool.sourceRef && <div className="faint small">{tool.sourceRef}</div>}
      </td>
      <td className="summary">{tool.summary}</td>
      <td>{tool.tags.map((tag) => <span key={tag} className="tag">{tag}</span>)}</td>
    </tr>
  );
}

export function EnabledSwitch({ tool, onToggle }: { tool: ToolRecord; onToggle: (enabled: boolean) => void }) {
  const canEdit = useCan("write");
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      disabled={!canEdit}
      title={canEdit ? undefined : "Editors can enable and disable tools"}
      aria-checked={tool.enabled}
      aria-label={`${tool.enabled ? "Disable" : "Enable"} ${tool.name}`}
      onClick={() => onToggle(!tool.enabled)}
      data-testid={`toggle-${tool.name}`}
    />
  );
}

/** Enables or disables a tool, showing the change at once and rolling back if the server refuses. */
export function useEnabledToggle(catalogId: string) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const key = queryKeys.tools(catalogId);
  return useMutation({
    mutationFn: async ({ name, enabled }: { name: string; enabled: boolean }) => {
      const result = await updateToolAction(catalogId, name, { enabled });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onMutate: async ({ name, enabled }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<ToolRecord[]>(key);
      queryClient.setQueryData<ToolRecord[]>(key, (tools) => tools?.map((tool) => (tool.name === name ? { ...tool, enabled } : tool)));
      return { previous };
    },
    onError: (error, _vars, context) => {
      queryClient.setQueryData(key, context?.previous);
      toast.error(error.message);
    },
    onSuccess: (tool) => {
      toast.success(`${tool.name} ${tool.enabled ? "enabled" : "disabled"}`);
      router.refresh();
    },
    onSettled: (tool) => {
      queryClient.invalidateQueries({ queryKey: key });
      if (tool) queryClient.invalidateQueries({ queryKey: queryKeys.audit(catalogId, tool.name) });
    },
  });
}

function ImportButton({ catalogId }: { catalogId: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const importFile = useMutation({
    mutationFn: async (file: File) => {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch (error) {
        throw new Error(`${file.name} is not valid JSON: ${(error as Error).message}`);
      }
      const result = await importToolsAction(catalogId, document);
      if (!result.ok) {
        const details = result.error.problems.slice(0, 5).map((p) => `${p.field}: ${p.message}`);
        const more = result.error.problems.length > 5 ? [`… and ${result.error.problems.length - 5} more`] : [];
        throw new Error([result.error.message, ...details, ...more].join("\n"));
      }
      return result.data;
    },
    onSuccess: (result) => {
      toast.success(`Imported: ${result.created.length} created, ${result.updated.length} updated, ${result.unchanged.length} unchanged`);
      queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
      router.refresh();
    },
    onError: (error) => toast.error("Import rejected: nothing was changed", { description: error.message, duration: 15_000 }),
  });
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid="import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) importFile.mutate(file);
          event.target.value = "";
        }}
      />
      <button type="button" onClick={() => input.current?.click()} disabled={importFile.isPending}>
        {importFile.isPending ? "Importing…" : "Import"}
      </button>
    </>
  );
}
