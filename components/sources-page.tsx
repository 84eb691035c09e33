"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { reloadSourcesAction } from "@/app/catalogs/[catalog]/sources/actions";
import type { McpServerView } from "@/db/queries/mcp-servers";
import type { McpOfferSummary } from "@/lib/gateway/federation";
import { useCan } from "./catalog-access";
import type { Transport } from "./mcp-add-form-schema";
import { McpServersSection } from "./mcp-servers-section";
import { RelativeTime } from "./relative-time";
import { type AgentSummary, type LocalSourcesSummary, PluginsSection, SkillsSection, SubagentsSection } from "./sources-folders";

interface Props {
  catalogId: string;
  servers: McpServerView[];
  /** Each server's resources and prompts, by name; null for one this instance is not connected to. */
  offers: Record<string, McpOfferSummary | null>;
  local: LocalSourcesSummary;
  /** Every agent of the catalog; the page lists those of mode subagent or all. */
  catalogAgents: AgentSummary[];
  /** When the server rendered the page: relative times start from it, so the first paint matches. */
  renderedAt: number;
  /** The MCP transports this person may add (stdio, and HTTP while private addresses are allowed, need an instance admin). */
  addableTransports: Transport[];
  /** Whether this person may reload the folders (instance admins). */
  mayReload: boolean;
  /** How long a server's first start may take (TOOLSHED_MCP_CONNECT_TIMEOUT_MS): the add form says so while it waits. */
  connectTimeoutMs: number;
}

export function SourcesPage({ catalogId, servers, offers, local, catalogAgents, renderedAt, addableTransports, mayReload, connectTimeoutMs }: Props) {
  const now = useNow(renderedAt);
  const isAdmin = useCan("admin");
  return (
    <div className="stack" data-testid="sources-page">
      <McpServersSection
        catalogId={catalogId}
        initial={servers}
        offers={offers}
        now={now}
        addableTransports={addableTransports}
        connectTimeoutMs={connectTimeoutMs}
      />
      <div className="spread">
        <p className="muted small" style={{ margin: 0 }} data-testid="local-loaded-at">
          Plugins, skills and file agents were read from their folders <RelativeTime iso={local.loadedAt} now={now} />.
          {isAdmin && !mayReload && " Instance admins reload them."}
        </p>
        {isAdmin && mayReload && <ReloadButton catalogId={catalogId} />}
      </div>
      <PluginsSection local={local} />
      <SkillsSection local={local} />
      <SubagentsSection local={local} catalogAgents={catalogAgents} />
    </div>
  );
}

/** The current time, ticking every 15 seconds once the page is in the browser. */
function useNow(start: number): number {
  const [now, setNow] = useState(start);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Reads the plugin, skill and agent folders again, for every catalog. */
function ReloadButton({ catalogId }: { catalogId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const reload = useMutation({
    mutationFn: async () => {
      const result = await reloadSourcesAction(catalogId);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: ({ errors }) => {
      const failed = errors.plugins.length + errors.skills.length + errors.agents.length;
      if (failed) toast.warning(`Reloaded; ${failed} file(s) failed to load`, { description: "See the errors in each section." });
      else toast.success("Reloaded plugins, skills and agents");
      void queryClient.invalidateQueries({ queryKey: ["tools", catalogId] });
      router.refresh();
    },
    onError: (error) => toast.error(`Could not reload: ${error.message}`),
  });
  return (
    <button type="button" onClick={() => reload.mutate()} disabled={reload.isPending} data-testid="reload-sources">
      {reload.isPending ? "Reloading…" : "Reload plugins, skills and agents"}
    </button>
  );
}
