"use client";

/** The decisions list's filters, each kept in the URL by its key ("" = any; "1" = on). */
export type DecisionFilters = Record<"q" | "conversation" | "kind" | "path" | "selector" | "outcome" | "rejected" | "fallback" | "tool", string>;

export interface ConversationOption {
  id: string;
  title: string;
}

/** The filter controls; each choice goes to the URL through `setParam`. */
export function DecisionFilterBar({
  filters,
  conversations,
  selectors,
  filtered,
  setParam,
  onClear,
}: {
  filters: DecisionFilters;
  conversations: ConversationOption[];
  selectors: string[];
  filtered: boolean;
  setParam: (key: keyof DecisionFilters, value: string) => void;
  onClear: () => void;
}) {
  return (
    <div className="toolbar" data-testid="decision-filters">
      <input
        type="search"
        aria-label="Message or query contains"
        placeholder="Message or query contains…"
        value={filters.q}
        onChange={(event) => setParam("q", event.target.value)}
        data-testid="filter-asked"
      />
      <ConversationSelect value={filters.conversation} conversations={conversations} onChange={(value) => setParam("conversation", value)} />
      <select aria-label="Kind" value={filters.kind} onChange={(event) => setParam("kind", event.target.value)} data-testid="filter-kind">
        <option value="">Every kind</option>
        <option value="preselect">Preselection only</option>
        <option value="tool-search">ToolSearch only</option>
        <option value="call">Gateway calls only</option>
        <option value="resource-read">Resource reads only</option>
        <option value="prompt-get">Prompt gets only</option>
      </select>
      <select aria-label="Path" value={filters.path} onChange={(event) => setParam("path", event.target.value)} data-testid="filter-path">
        <option value="">Any path</option>
        <option value="preselect">preselect</option>
        <option value="exact">exact</option>
        <option value="semantic">semantic</option>
        <option value="call">call</option>
      </select>
      <SelectorAndOutcome filters={filters} selectors={selectors} setParam={setParam} />
      <label className="row small">
        <input
          type="checkbox"
          checked={filters.rejected === "1"}
          onChange={(event) => setParam("rejected", event.target.checked ? "1" : "")}
          data-testid="filter-rejected"
        />
        With rejections
      </label>
      <label className="row small">
        <input
          type="checkbox"
          checked={filters.fallback === "1"}
          onChange={(event) => setParam("fallback", event.target.checked ? "1" : "")}
          data-testid="filter-fallback"
        />
        With fallbacks
      </label>
      {filters.tool && (
        <span className="badge row small" data-testid="filter-tool">
          Tool <span className="mono">{filters.tool}</span>
          <button type="button" className="ghost" aria-label={`Any tool, not only ${filters.tool}`} onClick={() => setParam("tool", "")}>
            ×
          </button>
        </span>
      )}
      {filtered && (
        <button type="button" className="ghost" onClick={onClear} data-testid="clear-filters">
          Clear filters
        </button>
      )}
    </div>
  );
}

/** Every conversation of the catalog, and the one the URL names even when it is not among them (so the choice still shows). */
function ConversationSelect({ value, conversations, onChange }: { value: string; conversations: ConversationOption[]; onChange: (value: string) => void }) {
  const knownConversation = !value || conversations.some((conversation) => conversation.id === value);
  return (
    <select aria-label="Conversation" value={value} onChange={(event) => onChange(event.target.value)} data-testid="filter-conversation">
      <option value="">All conversations</option>
      {!knownConversation && <option value={value}>{value}</option>}
      {conversations.map((conversation) => (
        <option key={conversation.id} value={conversation.id}>
          {conversation.title || "(untitled)"} · {conversation.id.slice(0, 8)}
        </option>
      ))}
    </select>
  );
}

/** The selector a decision was made by, and what it came to. */
function SelectorAndOutcome({
  filters,
  selectors,
  setParam,
}: {
  filters: DecisionFilters;
  selectors: string[];
  setParam: (key: keyof DecisionFilters, value: string) => void;
}) {
  return (
    <>
      <select aria-label="Selector" value={filters.selector} onChange={(event) => setParam("selector", event.target.value)} data-testid="filter-selector">
        <option value="">Any selector</option>
        {[...new Set([...selectors, ...(filters.selector && filters.selector !== "none" ? [filters.selector] : [])])].map((selector) => (
          <option key={selector} value={selector}>
            {selector}
          </option>
        ))}
        <option value="none">none (exact names, calls)</option>
      </select>
      <select aria-label="Outcome" value={filters.outcome} onChange={(event) => setParam("outcome", event.target.value)} data-testid="filter-outcome">
        <option value="">Any outcome</option>
        <option value="chosen">Tools chosen, or call answered</option>
        <option value="none">Nothing chosen</option>
        <option value="refused">Call refused</option>
        <option value="error">Call failed</option>
      </select>
    </>
  );
}
