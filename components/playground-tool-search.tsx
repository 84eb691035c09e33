"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { toolSearchAction } from "@/app/catalogs/[catalog]/playground/actions";
import type { ActionData } from "@/lib/action-result";
import { actionData } from "./action-query";
import { conversationKeys } from "./api-client";
import { CodeBlock } from "./code-block";
import type { PlaygroundSettings } from "./playground-settings";

type ToolSearchAnswer = ActionData<typeof toolSearchAction> & { query: string };

interface Props {
  catalogId: string;
  settings: PlaygroundSettings;
  conversationId?: string;
  /** The conversation a search was recorded in (a new one when none was shown). */
  onConversation: (id: string) => void;
}

/** ToolSearch as the main model would call it, for when there is none: each search's answer, newest first. */
export function ToolSearchConsole({ catalogId, settings, conversationId, onConversation }: Props) {
  const queryClient = useQueryClient();
  const [query, setQuery] = useState("");
  const [maxResults, setMaxResults] = useState(5);
  const [results, setResults] = useState<ToolSearchAnswer[]>([]);
  const search = useMutation({
    mutationFn: (text: string) =>
      actionData(() =>
        toolSearchAction(catalogId, {
          model: settings.model,
          agent: settings.agent,
          mode: settings.mode,
          flags: settings.flags,
          conversationId,
          query: text,
          maxResults,
        }),
      ),
    onSuccess: (result, text) => {
      setResults((current) => [{ ...result, query: text }, ...current]);
      onConversation(result.conversationId);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.list(catalogId) });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <section className="panel stack" data-testid="tool-search-console">
      <div>
        <h2 style={{ margin: 0 }}>ToolSearch console</h2>
        <p className="muted small">
          Search as the main model would: <code>select:a,b</code> or an exact name resolves locally; a description goes to the auxiliary selector. Every result
          is checked against the registry and this agent&apos;s permissions.
        </p>
      </div>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          if (query.trim()) search.mutate(query.trim());
        }}
      >
        <input
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder='e.g. "select:slack_post_message" or "create a calendar event"'
          style={{ flex: 1 }}
          data-testid="tool-search-query"
        />
        <label className="row small">
          max <input type="number" min={1} max={20} value={maxResults} onChange={(event) => setMaxResults(Number(event.target.value))} style={{ width: 64 }} />
        </label>
        <button type="submit" className="primary" disabled={search.isPending || !query.trim()} data-testid="tool-search-run">
          Search
        </button>
      </form>
      {results.map((result) => (
        <ToolSearchResult key={result.decisionId} catalogId={catalogId} result={result} />
      ))}
    </section>
  );
}

/** One search: its query and path, the tools that passed with their schemas, and those rejected with why. */
function ToolSearchResult({ catalogId, result }: { catalogId: string; result: ToolSearchAnswer }) {
  return (
    <div className="card small" data-testid="tool-search-result">
      <div className="spread">
        <span>
          <code>{result.query}</code>{" "}
          <span className="badge" data-testid="tool-search-path">
            {result.path}
          </span>
          {result.selector && <span className="faint"> by {result.selector}</span>}
        </span>
        <Link href={`/catalogs/${catalogId}/decisions/${result.decisionId}`}>decision</Link>
      </div>
      {result.tools.length === 0 && <span className="faint">No tool passed.</span>}
      {result.tools.map((tool) => (
        <details key={tool.name} data-testid={`found-${tool.name}`}>
          <summary>
            <code>{tool.name}</code> <span className="badge ok">available</span>
          </summary>
          <p className="muted">{tool.description}</p>
          <CodeBlock label={`Input schema of ${tool.name}`}>{JSON.stringify(tool.inputSchema, null, 2)}</CodeBlock>
        </details>
      ))}
      {result.rejected.map((rejection) => (
        <div key={rejection.name} data-testid={`rejected-${rejection.name}`}>
          <span className="badge off">rejected</span> <code>{rejection.name}</code> <span className="muted">{rejection.reason}</span>
        </div>
      ))}
    </div>
  );
}
