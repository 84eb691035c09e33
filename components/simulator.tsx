"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import type { KnownModel } from "@/lib/rules/providers";
import { fetchToolList, toolNameOf, type ToolListConfig, type ToolListResponse } from "./api-client";
import { useShownCount } from "./shown-count";
import { VirtualRows } from "./virtual-rows";

const KNOWN_FLAGS = ["experimental.lsp"];
const FORMATS = ["ai-sdk", "openai", "anthropic"] as const;

/** The URL keys of one configuration; the comparison uses the same keys prefixed with "b". */
function readConfig(params: URLSearchParams, prefix: "" | "b"): ToolListConfig | undefined {
  const model = params.get(`${prefix}model`);
  const agent = params.get(`${prefix}agent`);
  if (!model || !agent) return undefined;
  const flags = params.get(`${prefix}flags`);
  return {
    model,
    agent,
    mode: params.get(`${prefix}mode`) || undefined,
    provider: params.get(`${prefix}provider`) || undefined,
    flags: flags ? flags.split(",").filter(Boolean) : [],
    format: (params.get("format") as ToolListConfig["format"]) || "ai-sdk",
  };
}

function writeConfig(params: URLSearchParams, prefix: "" | "b", config: ToolListConfig | undefined) {
  for (const key of ["model", "agent", "mode", "provider", "flags"]) params.delete(`${prefix}${key}`);
  if (!config) return;
  params.set(`${prefix}model`, config.model);
  params.set(`${prefix}agent`, config.agent);
  if (config.mode) params.set(`${prefix}mode`, config.mode);
  if (config.provider) params.set(`${prefix}provider`, config.provider);
  if (config.flags?.length) params.set(`${prefix}flags`, config.flags.join(","));
}

interface Props {
  catalogId: string;
  agents: { name: string; mode: string }[];
  knownModels: KnownModel[];
}

export function Simulator({ catalogId, agents, knownModels }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const primaryAgent = agents.find((agent) => agent.mode !== "subagent")?.name ?? agents[0]?.name ?? "build";
  const configA = readConfig(params, "") ?? { model: "gpt-5", agent: primaryAgent, flags: [], format: "ai-sdk" as const };
  const configB = readConfig(params, "b");
  const format = (params.get("format") as ToolListConfig["format"]) || "ai-sdk";

  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };

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
          <select value={format} onChange={(event) => update((next) => next.set("format", event.target.value))} data-testid="format">
            {FORMATS.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <span style={{ flex: 1 }} />
        {configB ? (
          <button type="button" onClick={() => update((next) => writeConfig(next, "b", undefined))}>
            Stop comparing
          </button>
        ) : (
          <button
            type="button"
            data-testid="compare"
            onClick={() =>
              update((next) => {
                writeConfig(next, "", configA);
                writeConfig(next, "b", { model: "claude-sonnet-4-5", agent: agents.some((a) => a.name === "plan") ? "plan" : primaryAgent, flags: [] });
              })
            }
          >
            Compare side by side
          </button>
        )}
      </div>
      <div className={configB ? "grid-2" : undefined}>
        <SimulationColumn
          label={configB ? "A" : undefined}
          testId="sim-a"
          catalogId={catalogId}
          agents={agents}
          config={{ ...configA, format }}
          other={configB && { ...configB, format }}
          onChange={(config) => update((next) => writeConfig(next, "", config))}
        />
        {configB && (
          <SimulationColumn
            label="B"
            testId="sim-b"
            catalogId={catalogId}
            agents={agents}
            config={{ ...configB, format }}
            other={{ ...configA, format }}
            onChange={(config) => update((next) => writeConfig(next, "b", config))}
          />
        )}
      </div>
    </div>
  );
}

function useToolList(catalogId: string, config: ToolListConfig | undefined) {
  return useQuery({
    queryKey: ["tool-list", catalogId, config],
    queryFn: () => fetchToolList(catalogId, config!),
    enabled: !!config,
    retry: false,
  });
}

function SimulationColumn({
  label,
  testId,
  catalogId,
  agents,
  config,
  other,
  onChange,
}: {
  label?: string;
  testId: string;
  catalogId: string;
  agents: Props["agents"];
  config: ToolListConfig;
  other?: ToolListConfig;
  onChange: (config: ToolListConfig) => void;
}) {
  const result = useToolList(catalogId, config);
  const otherResult = useToolList(catalogId, other);
  const otherNames = useMemo(() => (otherResult.data ? new Set(otherResult.data.tools.map(toolNameOf)) : undefined), [otherResult.data]);
  return (
    <section className="stack" data-testid={testId}>
      <ConfigForm label={label} agents={agents} config={config} onChange={onChange} />
      {result.error && (
        <div className="error-box" role="alert" data-testid="sim-error">
          {result.error.message}
        </div>
      )}
      {result.data && (
        <>
          <WhyMissing result={result.data} model={config.model} agent={config.agent} />
          {otherNames && <Difference result={result.data} otherNames={otherNames} otherTotal={otherResult.data?.tokens.total} />}
          <Trace result={result.data} />
          <FinalList result={result.data} otherNames={otherNames} otherTotal={otherResult.data?.tokens.total} />
        </>
      )}
    </section>
  );
}

function ConfigForm({
  label,
  agents,
  config,
  onChange,
}: {
  label?: string;
  agents: Props["agents"];
  config: ToolListConfig;
  onChange: (config: ToolListConfig) => void;
}) {
  const [flagText, setFlagText] = useState("");
  const flags = config.flags ?? [];
  const commitModel = (value: string) => value.trim() && value.trim() !== config.model && onChange({ ...config, model: value.trim() });
  return (
    <div className="panel stack">
      <div className="row">
        {label && (
          <span className="badge" style={{ fontSize: 13 }}>
            {label}
          </span>
        )}
        <div className="field" style={{ flex: 2, minWidth: 180 }}>
          <label htmlFor={`model-${label ?? "a"}`}>Model</label>
          <input
            id={`model-${label ?? "a"}`}
            key={config.model}
            list="known-models"
            defaultValue={config.model}
            onBlur={(event) => commitModel(event.target.value)}
            onKeyDown={(event) => event.key === "Enter" && commitModel(event.currentTarget.value)}
            data-testid="model-input"
            spellCheck={false}
          />
        </div>
        <div className="field" style={{ flex: 1, minWidth: 120 }}>
          <label htmlFor={`agent-${label ?? "a"}`}>Agent</label>
          <select
            id={`agent-${label ?? "a"}`}
            value={config.agent}
            onChange={(event) => onChange({ ...config, agent: event.target.value })}
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
          <label htmlFor={`mode-${label ?? "a"}`}>Mode</label>
          <input
            id={`mode-${label ?? "a"}`}
            placeholder={config.agent}
            defaultValue={config.mode ?? ""}
            onBlur={(event) => event.target.value.trim() !== (config.mode ?? "") && onChange({ ...config, mode: event.target.value.trim() || undefined })}
            data-testid="mode-input"
          />
        </div>
      </div>
      <div className="row small">
        <span className="muted">Flags</span>
        {[...new Set([...KNOWN_FLAGS, ...flags])].map((flag) => (
          <label key={flag} className="row" style={{ fontWeight: 400, gap: 4 }}>
            <input
              type="checkbox"
              checked={flags.includes(flag)}
              onChange={(event) => onChange({ ...config, flags: event.target.checked ? [...flags, flag] : flags.filter((f) => f !== flag) })}
            />
            <code>{flag}</code>
          </label>
        ))}
        <input
          placeholder="another flag + Enter"
          value={flagText}
          onChange={(event) => setFlagText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && flagText.trim()) {
              onChange({ ...config, flags: [...flags, flagText.trim()] });
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
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
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
          provider <b>{result.provider ?? "unknown"}</b> · mode <b>{result.mode}</b> · rev {result.revision}
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
      <div className="virtual-scroll final-scroll" ref={setScroller}>
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
      </div>
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

/** Answers "why does this model not see X?" from the trace, without reading all of it. */
function WhyMissing({ result, model, agent }: { result: ToolListResponse; model: string; agent: string }) {
  const [name, setName] = useState("");
  const query = name.trim();
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
          value={name}
          onChange={(event) => setName(event.target.value)}
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
