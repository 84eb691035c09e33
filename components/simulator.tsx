"use client";

import { debounce, useQueryStates } from "nuqs";
import { useMemo, useState } from "react";
import { toolListAction } from "@/app/catalogs/[catalog]/simulator/actions";
import type { KnownModel } from "@/lib/rules/providers";
import { toolListWarnings } from "@/lib/warnings";
import { useActionQuery } from "./action-query";
import { queryKeys, toolNameOf, type ToolListConfig, type ToolListResponse } from "./api-client";
import { useCatalogRevision } from "./catalog-revision";
import { useShownCount } from "./shown-count";
import { FORMATS, type Pane, type PaneState, paneValues, readPane, simulatorParsers, toolListConfig } from "./simulator-state";
import { VirtualRows } from "./virtual-rows";
import { WarningList } from "./warning-list";

const KNOWN_FLAGS = ["experimental.lsp"];
/** How long typing the "why" question rests before it goes to the URL. */
const QUESTION_DEBOUNCE_MS = 300;

interface Props {
  catalogId: string;
  agents: { name: string; mode: string }[];
  knownModels: KnownModel[];
}

type PaneChange = (pane: PaneState) => PaneState;

export function Simulator({ catalogId, agents, knownModels }: Props) {
  const [values, setValues] = useQueryStates(simulatorParsers, { scroll: false });
  const primaryAgent = agents.find((agent) => agent.mode !== "subagent")?.name ?? agents[0]?.name ?? "build";
  const fallbackA: PaneState = { model: "gpt-5", agent: primaryAgent, mode: "", provider: "", flags: [], why: "" };
  const paneA = readPane(values, "a") ?? fallbackA;
  const paneB = readPane(values, "b");
  const { format } = values;

  // Each pane changes only its own keys, from the state as it is when the change applies.
  const changePane = (pane: Pane, change: PaneChange, typing = false) =>
    setValues((current) => paneValues(pane, change(readPane(current, pane) ?? fallbackA)), typing ? { limitUrlUpdates: debounce(QUESTION_DEBOUNCE_MS) } : {});

  return (
    <div className="stack">
      <datalist id="known-models">
        {knownModels.map((model) => (
          <option key={model.id} value={model.id}>
            {model.provider}
          </option>
        ))}
      </datalist>
      <div className="toolbar">
        <label className="row small">
          Format
          <select value={format} onChange={(event) => setValues({ format: event.target.value as (typeof FORMATS)[number] })} data-testid="format">
            {FORMATS.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <span style={{ flex: 1 }} />
        {paneB ? (
          <button type="button" onClick={() => setValues(paneValues("b", undefined))}>
            Stop comparing
          </button>
        ) : (
          <button
            type="button"
            data-testid="compare"
            onClick={() =>
              setValues({
                ...paneValues("a", paneA),
                ...paneValues("b", {
                  ...fallbackA,
                  model: "claude-sonnet-4-5",
                  agent: agents.some((a) => a.name === "plan") ? "plan" : primaryAgent,
                }),
              })
            }
          >
            Compare side by side
          </button>
        )}
      </div>
      <div className={paneB ? "grid-2" : undefined}>
        <SimulationColumn
          label={paneB ? "A" : undefined}
          testId="sim-a"
          catalogId={catalogId}
          agents={agents}
          pane={paneA}
          config={toolListConfig(paneA, format)}
          other={paneB && toolListConfig(paneB, format)}
          onChange={(change, typing) => changePane("a", change, typing)}
        />
        {paneB && (
          <SimulationColumn
            label="B"
            testId="sim-b"
            catalogId={catalogId}
            agents={agents}
            pane={paneB}
            config={toolListConfig(paneB, format)}
            other={toolListConfig(paneA, format)}
            onChange={(change, typing) => changePane("b", change, typing)}
          />
        )}
      </div>
    </div>
  );
}

/**
 * A configuration's simulated list at the catalog's newest revision (a change made elsewhere reads
 * it again); the last good list stays on screen while another is on its way or after it failed.
 */
function useToolList(catalogId: string, config: ToolListConfig | undefined) {
  const revision = useCatalogRevision(catalogId);
  return useActionQuery(
    config ? queryKeys.toolList(catalogId, revision, config) : ["tool-list", catalogId, "none"],
    config && (() => toolListAction(catalogId, config)),
  );
}

function SimulationColumn({
  label,
  testId,
  catalogId,
  agents,
  pane,
  config,
  other,
  onChange,
}: {
  label?: string;
  testId: string;
  catalogId: string;
  agents: Props["agents"];
  pane: PaneState;
  config: ToolListConfig;
  other?: ToolListConfig;
  onChange: (change: PaneChange, typing?: boolean) => void;
}) {
  const { query: result, shown, current } = useToolList(catalogId, config);
  const otherResult = useToolList(catalogId, other).query;
  const otherNames = useMemo(() => (otherResult.data ? new Set(otherResult.data.tools.map(toolNameOf)) : undefined), [otherResult.data]);
  return (
    <section className="stack" data-testid={testId}>
      <ConfigForm label={label} agents={agents} pane={pane} onChange={onChange} />
      {result.error && (
        <div className="error-box" role="alert" data-testid="sim-error">
          Could not simulate {config.model} / {config.agent}: {result.error.message}
          {shown && " The last result is shown below, for the settings it had."}{" "}
          <button type="button" onClick={() => result.refetch()} data-testid="sim-retry">
            Retry
          </button>
        </div>
      )}
      {shown && (
        <div style={current ? undefined : { opacity: 0.6 }} data-testid="sim-result" data-current={current ? "true" : "false"}>
          {result.isPlaceholderData && (
            <p className="muted small" aria-live="polite">
              Simulating {config.model} / {config.agent}…
            </p>
          )}
          <WhyMissing
            result={shown}
            model={config.model}
            agent={config.agent}
            question={pane.why}
            onAsk={(why) => onChange((state) => ({ ...state, why }), true)}
          />
          {current && (
            <WarningList
              warnings={toolListWarnings({
                model: config.model,
                provider: shown.provider ?? undefined,
                toolCount: shown.tools.length,
                tokens: shown.tokens.total,
              })}
              testId="sim-warnings"
            />
          )}
          {otherNames && <Difference result={shown} otherNames={otherNames} otherTotal={otherResult.data?.tokens.total} />}
          <Trace result={shown} />
          <FinalList result={shown} otherNames={otherNames} otherTotal={otherResult.data?.tokens.total} />
        </div>
      )}
    </section>
  );
}

/**
 * A text setting applied on Enter or when the field is left: while what is typed differs from the
 * setting in use, the field says so, so it never reads as a setting the result is not using.
 */
function SettingInput({
  id,
  applied,
  onApply,
  testId,
  ...inputProps
}: { id: string; applied: string; onApply: (value: string) => void; testId: string } & Omit<
  React.InputHTMLAttributes<HTMLInputElement>,
  "id" | "value" | "onChange" | "onBlur" | "onKeyDown"
>) {
  const [draft, setDraft] = useState(applied);
  const [appliedSeen, setAppliedSeen] = useState(applied);
  // A change of the setting from elsewhere (the URL, the other controls) replaces the draft.
  if (applied !== appliedSeen) {
    setAppliedSeen(applied);
    setDraft(applied);
  }
  const apply = () => draft.trim() !== applied && onApply(draft.trim());
  return (
    <>
      <input
        id={id}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={apply}
        onKeyDown={(event) => event.key === "Enter" && apply()}
        data-testid={testId}
        aria-describedby={draft.trim() !== applied ? `${id}-unapplied` : undefined}
        {...inputProps}
      />
      {draft.trim() !== applied && (
        <span id={`${id}-unapplied`} className="hint" data-testid={`${testId}-unapplied`}>
          not applied yet: Enter applies
        </span>
      )}
    </>
  );
}

function ConfigForm({ label, agents, pane, onChange }: { label?: string; agents: Props["agents"]; pane: PaneState; onChange: (change: PaneChange) => void }) {
  const [flagText, setFlagText] = useState("");
  const id = label ?? "a";
  return (
    <div className="panel stack">
      <div className="row">
        {label && (
          <span className="badge" style={{ fontSize: 13 }}>
            {label}
          </span>
        )}
        <div className="field" style={{ flex: 2, minWidth: 180 }}>
          <label htmlFor={`model-${id}`}>Model</label>
          <SettingInput
            id={`model-${id}`}
            applied={pane.model}
            onApply={(model) => model && onChange((state) => ({ ...state, model }))}
            testId="model-input"
            list="known-models"
            spellCheck={false}
          />
        </div>
        <div className="field" style={{ flex: 1, minWidth: 120 }}>
          <label htmlFor={`agent-${id}`}>Agent</label>
          <select
            id={`agent-${id}`}
            value={pane.agent}
            onChange={(event) => {
              const agent = event.target.value;
              onChange((state) => ({ ...state, agent }));
            }}
            data-testid="agent-select"
          >
            {agents.map((agent) => (
              <option key={agent.name} value={agent.name}>
                {agent.name} ({agent.mode})
              </option>
            ))}
          </select>
        </div>
        <div className="field" style={{ flex: 1, minWidth: 110 }}>
          <label htmlFor={`mode-${id}`}>Mode</label>
          <SettingInput
            id={`mode-${id}`}
            applied={pane.mode}
            onApply={(mode) => onChange((state) => ({ ...state, mode }))}
            testId="mode-input"
            placeholder={`${pane.agent} (the agent's)`}
          />
        </div>
      </div>
      <div className="row small">
        <span className="muted">Flags</span>
        {[...new Set([...KNOWN_FLAGS, ...pane.flags])].map((flag) => (
          <label key={flag} className="row" style={{ fontWeight: 400, gap: 4 }}>
            <input
              type="checkbox"
              checked={pane.flags.includes(flag)}
              onChange={(event) => {
                const on = event.target.checked;
                onChange((state) => ({ ...state, flags: on ? [...state.flags, flag] : state.flags.filter((f) => f !== flag) }));
              }}
            />
            <code>{flag}</code>
          </label>
        ))}
        <input
          placeholder="another flag + Enter"
          aria-label="Another flag"
          value={flagText}
          onChange={(event) => setFlagText(event.target.value)}
          onKeyDown={(event) => {
            const added = flagText
              .split(",")
              .map((flag) => flag.trim())
              .filter(Boolean);
            if (event.key === "Enter" && added.length > 0) {
              onChange((state) => ({ ...state, flags: [...new Set([...state.flags, ...added])] }));
              setFlagText("");
            }
          }}
          style={{ width: 170 }}
        />
      </div>
    </div>
  );
}

function FinalList({ result, otherNames, otherTotal }: { result: ToolListResponse; otherNames?: Set<string>; otherTotal?: number }) {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const { names, max, annotations } = useMemo(() => {
    let largest = 1;
    for (const tokens of Object.values(result.tokens.perTool)) largest = Math.max(largest, tokens);
    return { names: result.tools.map(toolNameOf), max: largest, annotations: new Map(result.annotations.map((annotation) => [annotation.name, annotation])) };
  }, [result]);
  const scale = Math.max(result.tokens.total, otherTotal ?? 0, 1);
  return (
    <div className="panel" data-testid="final-list">
      <div className="spread">
        <h2 style={{ margin: 0 }}>
          Final list: <span data-testid="final-count">{names.length}</span> tools
        </h2>
        <span className="muted small">
          provider <b>{result.provider ?? "unknown"}</b> · mode <b data-testid="final-mode">{result.mode}</b> · rev {result.revision}
        </span>
      </div>
      <div className="small" style={{ margin: "8px 0 12px" }}>
        <div className="spread">
          <span>Tokens ({result.format} format)</span>
          <b data-testid="token-total">{result.tokens.total.toLocaleString()}</b>
        </div>
        <div className="bar-track" title={`${result.tokens.total} tokens`}>
          <div className="bar" style={{ width: `${(result.tokens.total / scale) * 100}%` }} />
        </div>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for the keyboard to scroll it (WCAG 2.1.1) */}
      <section className="virtual-scroll final-scroll" ref={setScroller} tabIndex={0} aria-label="Final tool list">
        <table className="fixed-layout">
          <colgroup>
            <col />
            <col style={{ width: 90 }} />
            <col style={{ width: "40%" }} />
          </colgroup>
          <tbody>
            <VirtualRows
              count={names.length}
              scrollElement={scroller}
              columns={3}
              estimateSize={38}
              renderRow={(index, measure) => {
                const name = names[index];
                const annotation = annotations.get(name);
                const onlyHere = otherNames && !otherNames.has(name);
                const tokens = result.tokens.perTool[name] ?? 0;
                return (
                  <tr
                    key={name}
                    ref={measure}
                    data-index={index}
                    className={onlyHere ? "only-here" : undefined}
                    data-testid={`final-${name}`}
                    data-only-here={onlyHere ? "true" : undefined}
                  >
                    <td className="name">
                      {name}
                      {onlyHere && (
                        <span className="badge warn" style={{ marginLeft: 6 }}>
                          only here
                        </span>
                      )}
                      {annotation?.needsApproval && (
                        <span className="badge warn" style={{ marginLeft: 6 }}>
                          asks first
                        </span>
                      )}
                    </td>
                    <td>
                      <span className={`badge ${annotation?.source ?? ""}`}>{annotation?.source}</span>
                    </td>
                    <td>
                      <div className="row" style={{ flexWrap: "nowrap" }}>
                        <div className="bar-track" style={{ flex: 1 }}>
                          <div className="bar" style={{ width: `${(tokens / max) * 100}%` }} />
                        </div>
                        <span className="small mono" style={{ width: 44, textAlign: "right" }}>
                          {tokens}
                        </span>
                      </div>
                    </td>
                  </tr>
                );
              }}
            />
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** What this configuration sees that the other does not, and the token difference. */
function Difference({ result, otherNames, otherTotal }: { result: ToolListResponse; otherNames: Set<string>; otherTotal?: number }) {
  const onlyHere = useMemo(() => result.tools.map(toolNameOf).filter((name) => !otherNames.has(name)), [result, otherNames]);
  const [shown, more] = useShownCount(onlyHere.length);
  const delta = otherTotal === undefined ? undefined : result.tokens.total - otherTotal;
  return (
    <div className="panel small" data-testid="difference">
      <b>Only here:</b>{" "}
      {onlyHere.length === 0 ? (
        <span className="faint">nothing</span>
      ) : (
        onlyHere.slice(0, shown).map((name) => (
          <span key={name} className="tag" style={{ background: "#fff8e6" }}>
            {name}
          </span>
        ))
      )}
      {more}
      {delta !== undefined && (
        <span className="muted" style={{ marginLeft: 8 }}>
          · {delta === 0 ? "same token cost" : `${delta > 0 ? "+" : ""}${delta.toLocaleString()} tokens vs the other`}
        </span>
      )}
    </div>
  );
}

/** Answers "why does this model not see X?" from the trace, without reading all of it; the question is kept in the URL. */
function WhyMissing({
  result,
  model,
  agent,
  question,
  onAsk,
}: {
  result: ToolListResponse;
  model: string;
  agent: string;
  question: string;
  onAsk: (question: string) => void;
}) {
  const query = question.trim();
  const present = result.tools.some((tool) => toolNameOf(tool) === query);
  const removal = result.trace.flatMap((entry) =>
    entry.removed.filter((note) => note.name === query).map((note) => ({ stage: entry.stage, reason: note.reason })),
  )[0];
  const changes = result.trace.flatMap((entry) =>
    entry.changed.filter((note) => note.name === query).map((note) => ({ stage: entry.stage, reason: note.reason })),
  );
  return (
    <div className="panel stack">
      <div className="row">
        <label htmlFor={`why-${model}-${agent}`}>
          Why does {model} / {agent} not see…
        </label>
        <input
          id={`why-${model}-${agent}`}
          value={question}
          onChange={(event) => onAsk(event.target.value)}
          placeholder="tool name, e.g. edit"
          data-testid="why-input"
          spellCheck={false}
        />
      </div>
      {query && (
        <div data-testid="why-answer">
          {removal ? (
            <span>
              <code>{query}</code> was removed at <b>{removal.stage}</b>: {removal.reason}
            </span>
          ) : present ? (
            <span>
              <code>{query}</code> is in the final list{changes.length ? `; changed: ${changes.map((change) => change.reason).join("; ")}` : "."}
            </span>
          ) : (
            <span className="muted">
              There is no tool named <code>{query}</code> in this catalog.
            </span>
          )}
        </div>
      )}
    </div>
  );
}

function Trace({ result }: { result: ToolListResponse }) {
  return (
    <div className="panel" data-testid="trace">
      <h2>Stage by stage</h2>
      <ol className="timeline">
        {result.trace.map((entry) => (
          <TraceStage key={entry.stage} entry={entry} />
        ))}
      </ol>
    </div>
  );
}

function TraceStage({ entry }: { entry: ToolListResponse["trace"][number] }) {
  const notes = useMemo(
    () => [...entry.removed.map((note) => ({ ...note, kind: "removed" as const })), ...entry.changed.map((note) => ({ ...note, kind: "changed" as const }))],
    [entry],
  );
  const [shown, more] = useShownCount(notes.length);
  return (
    <li data-testid={`stage-${entry.stage}`}>
      <div className="spread">
        <b>{entry.stage}</b>
        <span className="muted small">
          {entry.removed.length > 0 && <span className="badge off">−{entry.removed.length}</span>}{" "}
          {entry.changed.length > 0 && <span className="badge warn">~{entry.changed.length}</span>} {entry.remaining} left
        </span>
      </div>
      {notes.slice(0, shown).map((note) =>
        note.kind === "removed" ? (
          <div key={`r-${note.name}`} className="small" data-testid="trace-removed">
            <code>−{note.name}</code> <span className="muted">{note.reason}</span>
          </div>
        ) : (
          <div key={`c-${note.name}`} className="small">
            <code>~{note.name}</code> <span className="muted">{note.reason}</span>
          </div>
        ),
      )}
      {more}
    </li>
  );
}
