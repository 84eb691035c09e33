"use client";

import { useChat } from "@ai-sdk/react";
import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { APICallError, DefaultChatTransport, type DynamicToolUIPart } from "ai";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Fragment, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import type { PlaygroundUIMessage, ToolSearchRecord, TurnDetails } from "@/lib/playground/messages";
import type { TurnToolEntry } from "@/lib/selection/turn";
import { toolSearchAction } from "@/app/catalogs/[catalog]/playground/actions";
import type { ActionData } from "@/lib/action-result";
import { mayDeleteConversation, type Access } from "@/lib/auth/policy";
import { actionData } from "./action-query";
import { conversationKeys, fetchConversation, fetchConversations, fetchTool, queryKeys } from "./api-client";
import { ConfirmButton } from "./confirm-button";
import { type ChatTurn, exchangeOf, pendingSimulatedCalls, simulatedCall, simulatedResultsComplete, turnsOf, uiMessagesOf } from "./playground-chat";
import { useShownCount } from "./shown-count";
import { CodeBlock } from "./code-block";

interface Props {
  catalogId: string;
  agents: { name: string; mode: string }[];
  knownModels: string[];
  mainModel: string | null;
  mainModelError: string | null;
  auxSelector: string;
  /** Who is looking (lib/auth/policy.ts principalKey) and their access: the Delete button shows only where they may delete. */
  viewer: { key: string; access: Access };
}

/** What went wrong: the API's own message when it refused the request, else the error the stream carried. */
function errorMessage(error: Error): string {
  if (!APICallError.isInstance(error)) return `Main model: ${error.message}`;
  try {
    return JSON.parse(error.responseBody ?? "").error.message ?? error.message;
  } catch {
    return error.message;
  }
}

export function Playground({ catalogId, agents, knownModels, mainModel, mainModelError, auxSelector, viewer }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const conversationId = params.get("conversation") ?? undefined;
  const primary = agents.find((agent) => agent.mode !== "subagent")?.name ?? agents[0]?.name ?? "build";
  const config = {
    model: params.get("model") ?? "claude-sonnet-4-5",
    agent: params.get("agent") ?? primary,
    mode: params.get("mode") || undefined,
    flags: (params.get("flags") ?? "").split(",").filter(Boolean),
    k: Number(params.get("k") ?? 8),
  };
  const setParams = (change: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined || value === "") next.delete(key);
      else next.set(key, value);
    }
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };

  /** The conversation the chat holds: set as soon as a stream names it, so following the URL there reloads nothing. */
  const shown = useRef<string | undefined>(undefined);
  const conversations = useQuery({ queryKey: conversationKeys.list(catalogId), queryFn: () => fetchConversations(catalogId) });
  const chat = useChat<PlaygroundUIMessage>({
    transport: new DefaultChatTransport({
      api: `/api/catalogs/${encodeURIComponent(catalogId)}/playground`,
      prepareSendMessagesRequest: ({ messages }) => ({ body: { ...config, conversationId: shown.current, ...exchangeOf(messages) } }),
    }),
    // Once every call of the step has its result and some were simulated here, the turn goes on.
    sendAutomaticallyWhen: simulatedResultsComplete,
    onData: (part) => {
      if (part.type !== "data-conversation" || part.data.conversationId === shown.current) return;
      shown.current = part.data.conversationId;
      setParams({ conversation: part.data.conversationId });
    },
    onError: (error) => toast.error(errorMessage(error)),
    onFinish: () => queryClient.invalidateQueries({ queryKey: conversationKeys.list(catalogId) }),
  });
  const { setMessages, stop } = chat;

  // Another conversation picked (a link, New, a reload): the chat shows it as stored.
  useEffect(() => {
    if (conversationId === shown.current) return;
    shown.current = conversationId;
    void stop();
    setMessages([]);
    if (!conversationId) return;
    fetchConversation(catalogId, conversationId).then(
      (stored) => shown.current === conversationId && setMessages(uiMessagesOf(stored.messages)),
      (error: Error) => toast.error(error.message),
    );
  }, [catalogId, conversationId, setMessages, stop]);

  const busy = chat.status === "submitted" || chat.status === "streaming";
  const turns = turnsOf(chat.messages);
  const pending = busy ? [] : pendingSimulatedCalls(turns.at(-1)?.answer);

  return (
    <div className="playground">
      <aside className="panel stack" data-testid="conversations">
        <div className="spread">
          <h3 style={{ margin: 0 }}>Conversations</h3>
          <button type="button" className="small-button" onClick={() => setParams({ conversation: undefined })} data-testid="new-conversation">
            New
          </button>
        </div>
        {conversations.data?.length === 0 && <p className="faint small">None yet: send a message.</p>}
        <ul className="conversation-list">
          {conversations.data?.map((item) => (
            <li key={item.id} className={item.id === conversationId ? "current" : undefined}>
              <Link
                href={`${pathname}?conversation=${item.id}&model=${encodeURIComponent(item.model)}&agent=${encodeURIComponent(item.agent)}`}
                data-testid="conversation-link"
              >
                {item.title || "Untitled"}
              </Link>
              <div className="faint small">
                {item.model} · {item.agent} · {item.history.length} tools in history
              </div>
              {mayDeleteConversation(viewer, item.owner) && (
                <ConfirmButton
                  label="Delete"
                  className="ghost small-button danger"
                  title="Delete this conversation?"
                  body="Its messages go; its recorded decisions stay in the log."
                  confirmLabel="Delete"
                  onConfirm={async () => {
                    const response = await fetch(`/api/catalogs/${encodeURIComponent(catalogId)}/conversations/${item.id}`, {
                      method: "DELETE",
                      headers: { "content-type": "application/json" },
                    });
                    if (!response.ok) return void toast.error("Could not delete the conversation");
                    toast.success("Conversation deleted");
                    if (item.id === conversationId) setParams({ conversation: undefined });
                    void queryClient.invalidateQueries({ queryKey: conversationKeys.list(catalogId) });
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      </aside>
      <section className="stack" style={{ minWidth: 0 }}>
        <div className="panel row" data-testid="playground-config">
          <label className="field" style={{ flex: 2, minWidth: 160 }}>
            Model (for the pipeline)
            <input
              key={config.model}
              list="playground-models"
              defaultValue={config.model}
              onBlur={(event) => event.target.value.trim() && event.target.value.trim() !== config.model && setParams({ model: event.target.value.trim() })}
              data-testid="playground-model"
            />
            <datalist id="playground-models">
              {knownModels.map((id) => (
                <option key={id} value={id} />
              ))}
            </datalist>
          </label>
          <label className="field" style={{ flex: 1, minWidth: 110 }}>
            Agent
            <select value={config.agent} onChange={(event) => setParams({ agent: event.target.value })} data-testid="playground-agent">
              {agents.map((agent) => (
                <option key={agent.name} value={agent.name}>
                  {agent.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field" style={{ width: 110 }}>
            Mode
            <input
              key={config.mode ?? ""}
              placeholder={config.agent}
              defaultValue={config.mode ?? ""}
              onBlur={(event) => setParams({ mode: event.target.value.trim() || undefined })}
            />
          </label>
          <label className="field" style={{ width: 150 }}>
            Flags
            <input
              key={config.flags.join(",")}
              placeholder="experimental.lsp"
              defaultValue={config.flags.join(",")}
              onBlur={(event) => setParams({ flags: event.target.value.replace(/\s+/g, "") || undefined })}
            />
          </label>
          <label className="field" style={{ width: 80 }}>
            Top k
            <input type="number" min={1} max={50} value={config.k} onChange={(event) => setParams({ k: event.target.value })} data-testid="playground-k" />
          </label>
          <div className="small" style={{ flexBasis: "100%" }} data-testid="model-status">
            Auxiliary selector: <b>{auxSelector}</b> · Main model: {mainModel ? <b>{mainModel}</b> : <span className="badge warn">none configured</span>}
            {mainModelError && <span className="field-error"> {mainModelError}</span>}
            {!mainModel && <span className="muted"> · each message shows the tool set the main model would get; use the ToolSearch console below.</span>}
          </div>
        </div>

        {turns.length === 0 && !busy && (
          <div className="panel empty" data-testid="playground-empty">
            <strong>Ask something an agent of this catalog would be asked</strong>
            Each message shows the preselection, the turn&apos;s tool set and {mainModel ? "the main model's answer" : "what the main model would get"}.
          </div>
        )}
        {turns.map((turn, index) => (
          <TurnView
            key={turn.key}
            catalogId={catalogId}
            number={index + 1}
            turn={turn}
            streaming={busy && index === turns.length - 1}
            hasMainModel={!!mainModel}
          />
        ))}

        {pending.length > 0 && (
          <PendingResults
            calls={pending}
            onSubmit={async (results) => {
              // Client-side tool outputs: the last one completes the step, and the chat sends them (sendAutomaticallyWhen).
              for (const result of results) await chat.addToolOutput({ tool: result.toolName, toolCallId: result.toolCallId, output: result.output });
            }}
          />
        )}
        <Composer
          disabled={busy || pending.length > 0}
          onSend={(message) => chat.sendMessage({ text: message })}
          onStop={busy && mainModel ? () => chat.stop() : undefined}
        />
        {!mainModel && (
          <ToolSearchConsole
            catalogId={catalogId}
            config={config}
            conversationId={conversationId}
            onConversation={(id) => id !== conversationId && setParams({ conversation: id })}
          />
        )}
      </section>
    </div>
  );
}

/** `onStop`, while the main model answers: stops it. */
function Composer({ disabled, onSend, onStop }: { disabled: boolean; onSend: (message: string) => void; onStop?: () => void }) {
  const [text, setText] = useState("");
  const send = () => {
    if (!text.trim() || disabled) return;
    onSend(text.trim());
    setText("");
  };
  return (
    <form
      className="panel row composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        rows={2}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey) {
            event.preventDefault();
            send();
          }
        }}
        placeholder="Message (Enter sends, Shift+Enter for a new line)"
        aria-label="Message"
        data-testid="composer"
        style={{ flex: 1 }}
      />
      {onStop ? (
        <button type="button" onClick={onStop} data-testid="stop">
          Stop
        </button>
      ) : (
        <button type="submit" className="primary" disabled={disabled || !text.trim()} data-testid="send">
          Send
        </button>
      )}
    </form>
  );
}

const ORIGIN_LABEL: Record<TurnToolEntry["origin"], string> = { base: "base", preselected: "preselected", history: "history", entry: "ToolSearch entry" };

function TurnView({
  catalogId,
  number,
  turn,
  streaming,
  hasMainModel,
}: {
  catalogId: string;
  number: number;
  turn: ChatTurn;
  streaming: boolean;
  hasMainModel: boolean;
}) {
  return (
    <article className="panel stack turn" data-testid={`turn-${number}`}>
      <div className="spread">
        <b>Turn {number}</b>
        {streaming && <span className="badge warn">working…</span>}
      </div>
      <div className="bubble user" data-testid="user-message">
        {turn.message}
      </div>
      {turn.details ? <PreselectionView catalogId={catalogId} details={turn.details} /> : <p className="muted small">Preselecting…</p>}
      {turn.answer && <AnswerView parts={turn.answer.parts} />}
      {!hasMainModel && turn.details && (
        <div className="small muted" data-testid="no-main-model">
          No main model is configured: this is the tool set it would get. Try ToolSearch below as it would.
        </div>
      )}
    </article>
  );
}

/** The candidates a selector saw, with their summaries: each tool read on its own, only those listed. */
function CandidateList({ catalogId, names }: { catalogId: string; names: string[] }) {
  const [shown, more] = useShownCount(names.length, 20);
  const listed = names.slice(0, shown);
  const tools = useQueries({
    // A tool deleted since the turn has no summary to show: no retries.
    queries: listed.map((name) => ({ queryKey: queryKeys.tool(catalogId, name), queryFn: () => fetchTool(catalogId, name), retry: false })),
  });
  return (
    <>
      <ul className="compact">
        {listed.map((name, index) => (
          <li key={name}>
            <code>{name}</code> <span className="muted">{tools[index].data?.summary}</span>
          </li>
        ))}
      </ul>
      {more}
    </>
  );
}

function PreselectionView({ catalogId, details }: { catalogId: string; details: TurnDetails }) {
  const [candidatesOpen, setCandidatesOpen] = useState(false);
  const max = Math.max(...details.selected.map((tool) => tool.score), 1e-9);
  const byOrigin = (["base", "preselected", "history", "entry"] as const).map((origin) => ({
    origin,
    names: details.toolSet.filter((entry) => entry.origin === origin).map((entry) => entry.name),
  }));
  return (
    <div className="grid-2" style={{ alignItems: "start" }}>
      <div className="stack" data-testid="preselection">
        <div className="small">
          <b>1. Preselection</b> by <code data-testid="selector">{details.selector}</code>
          {details.fallback && (
            <span className="badge warn" style={{ marginLeft: 6 }} title={details.fallback.cause}>
              fallback from {details.fallback.from}: {details.fallback.cause}
            </span>
          )}
          <span className="faint"> · {details.latencyMs.toFixed(1)} ms · </span>
          <Link href={`/catalogs/${catalogId}/decisions/${details.decisionId}`}>decision</Link>
        </div>
        <details className="small" onToggle={(event) => setCandidatesOpen(event.currentTarget.open)}>
          <summary>
            It saw {details.candidates.length} tools as names and summaries only ({details.tokens.candidates.toLocaleString()} tokens)
          </summary>
          {candidatesOpen && <CandidateList catalogId={catalogId} names={details.candidates} />}
        </details>
        <table className="small">
          <tbody>
            {details.selected.map((tool) => (
              <tr key={tool.name} data-testid={`selected-${tool.name}`}>
                <td className="name">{tool.name}</td>
                <td style={{ width: "45%" }}>
                  <div className="bar-track">
                    <div className="bar" style={{ width: `${(tool.score / max) * 100}%` }} />
                  </div>
                </td>
                <td className="mono" style={{ width: 60, textAlign: "right" }}>
                  {tool.score.toFixed(2)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {details.selected.length === 0 && <p className="faint small">Nothing matched.</p>}
        {details.rejected.length > 0 && (
          <div className="small" data-testid="preselection-rejected">
            <b>Rejected:</b>
            {details.rejected.map((rejection) => (
              <div key={rejection.name}>
                <code>{rejection.name}</code> <span className="muted">{rejection.reason}</span>
              </div>
            ))}
          </div>
        )}
      </div>
      <div className="stack" data-testid="tool-set">
        <div className="small">
          <b>2. The turn&apos;s tool set</b>: {details.toolSet.length} tools
        </div>
        <div className="small">
          <div className="spread">
            <span>{details.tokens.toolSet.toLocaleString()} tokens</span>
            <span className="faint">of {details.tokens.visible.toLocaleString()} for the whole visible list</span>
          </div>
          <div className="bar-track">
            <div className="bar" style={{ width: `${(details.tokens.toolSet / Math.max(details.tokens.visible, 1)) * 100}%` }} />
          </div>
        </div>
        {byOrigin.map(({ origin, names }) =>
          names.length === 0 ? null : (
            <div key={origin} className="small">
              <span className="muted">{ORIGIN_LABEL[origin]}: </span>
              {names.map((name) => (
                <span key={name} className={`tag origin-${origin}`} data-testid={`set-${origin}-${name}`}>
                  {name}
                </span>
              ))}
            </div>
          ),
        )}
        {details.dropped.length > 0 && <div className="small faint">Left out: {details.dropped.map((drop) => `${drop.name} (${drop.reason})`).join("; ")}</div>}
      </div>
    </div>
  );
}

/** A tool call, and its result or error once there is one. `refused`: the tool was not in the step's tool set. */
function ToolCallView({ part, refused }: { part: DynamicToolUIPart; refused: boolean }) {
  return (
    <>
      <div className="tool-call small" data-testid={`tool-call-${part.toolName}`}>
        <b>calls</b> <code>{part.toolName}</code> {refused && <span className="badge off">not in its tool set</span>}
        <CodeBlock label={`Input of ${part.toolName}`}>{JSON.stringify(part.input, null, 2)}</CodeBlock>
      </div>
      {part.state === "output-available" && (
        <div className="tool-result small" data-testid="tool-result">
          {simulatedCall(part) ? <span className="badge warn">simulated result</span> : <span className="badge ok">live result</span>}{" "}
          <code>{part.toolName}</code>
          <CodeBlock label={`Result of ${part.toolName}`}>{typeof part.output === "string" ? part.output : JSON.stringify(part.output, null, 2)}</CodeBlock>
        </div>
      )}
      {part.state === "output-error" && (
        <div className="error-box small">
          <code>{part.toolName}</code>: {part.errorText}
        </div>
      )}
    </>
  );
}

function ToolSearchView({ search }: { search: ToolSearchRecord }) {
  return (
    <div className="tool-search small" data-testid="tool-search-event">
      <b>ToolSearch</b> <code>{search.query}</code> <span className="badge">{search.path}</span>
      {search.selector && <span className="faint"> by {search.selector}</span>}
      <div>
        Found:{" "}
        {search.found.length === 0 ? (
          <span className="faint">nothing</span>
        ) : (
          search.found.map((name) => (
            <span key={name} className="tag origin-found">
              {name}
            </span>
          ))
        )}
      </div>
      {search.rejected.map((rejection) => (
        <div key={rejection.name} className="muted">
          rejected <code>{rejection.name}</code>: {rejection.reason}
        </div>
      ))}
    </div>
  );
}

/** The answer's parts in order: text, tool calls, ToolSearch verifications, and a step's tool set when ToolSearch changed it. */
function AnswerView({ parts }: { parts: PlaygroundUIMessage["parts"] }) {
  let stepTools: string[] | undefined;
  const blocks = parts.map((part, index) => {
    let block: React.ReactNode = null;
    if (part.type === "text" && part.text) {
      block = (
        <div className="bubble assistant" data-testid="assistant-text">
          {part.text}
        </div>
      );
    } else if (part.type === "dynamic-tool") {
      block = <ToolCallView part={part} refused={stepTools !== undefined && !stepTools.includes(part.toolName)} />;
    } else if (part.type === "data-tool-search") {
      block = <ToolSearchView search={part.data} />;
    } else if (part.type === "data-tool-set") {
      const changed = stepTools !== undefined && part.data.activeTools.some((name) => !stepTools?.includes(name));
      stepTools = part.data.activeTools;
      if (changed)
        block = (
          <div className="small faint" data-testid="next-step-tools">
            Available from this step on: {part.data.activeTools.join(", ")}
          </div>
        );
    }
    // biome-ignore lint/suspicious/noArrayIndexKey: an answer's parts are only appended to or updated in place, so a part's position is its identity
    return block && <Fragment key={index}>{block}</Fragment>;
  });
  return <div className="stack">{blocks}</div>;
}

/** The simulated calls waiting for a result: the placeholder their tool offers, or what the person types. */
function PendingResults({
  calls,
  onSubmit,
}: {
  calls: DynamicToolUIPart[];
  onSubmit: (results: { toolCallId: string; toolName: string; output: string }[]) => void;
}) {
  const [outputs, setOutputs] = useState<Record<string, string>>(() =>
    Object.fromEntries(calls.map((call) => [call.toolCallId, simulatedCall(call)?.placeholder ?? ""])),
  );
  return (
    <form
      className="panel stack"
      data-testid="pending-results"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(calls.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, output: outputs[call.toolCallId] ?? "" })));
      }}
    >
      <div>
        <b>Simulated results</b>{" "}
        <span className="muted small">
          Nothing runs on the server: type what <code>{calls.map((call) => call.toolName).join(", ")}</code> would return, or keep the placeholder.
        </span>
      </div>
      {calls.map((call) => (
        <label key={call.toolCallId} className="field">
          <code>{call.toolName}</code>
          <textarea
            className="code"
            rows={4}
            value={outputs[call.toolCallId] ?? ""}
            onChange={(event) => setOutputs((current) => ({ ...current, [call.toolCallId]: event.target.value }))}
            data-testid={`result-${call.toolName}`}
          />
        </label>
      ))}
      <div className="row end">
        <button type="submit" className="primary" data-testid="send-results">
          Send results
        </button>
      </div>
    </form>
  );
}

type ToolSearchAnswer = ActionData<typeof toolSearchAction>;

function ToolSearchConsole({
  catalogId,
  config,
  conversationId,
  onConversation,
}: {
  catalogId: string;
  config: { model: string; agent: string; mode?: string; flags: string[] };
  conversationId?: string;
  onConversation: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const [query, setQuery] = useState("");
  const [maxResults, setMaxResults] = useState(5);
  const [results, setResults] = useState<(ToolSearchAnswer & { query: string })[]>([]);
  const search = useMutation({
    mutationFn: (text: string) =>
      actionData(() =>
        toolSearchAction(catalogId, {
          model: config.model,
          agent: config.agent,
          mode: config.mode,
          flags: config.flags,
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
  const input = useRef<HTMLInputElement>(null);
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
          ref={input}
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
        <div key={result.decisionId} className="card small" data-testid="tool-search-result">
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
      ))}
    </section>
  );
}
