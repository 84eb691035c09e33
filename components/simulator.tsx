"use client";

import { debounce, useQueryStates } from "nuqs";
import { useMemo } from "react";
import { toolListAction } from "@/app/catalogs/[catalog]/simulator/actions";
import type { KnownModel } from "@/lib/rules/providers";
import { toolListWarnings } from "@/lib/warnings";
import { useActionQuery } from "./action-query";
import { queryKeys, type ToolListConfig, toolNameOf } from "./api-client";
import { useCatalogRevision } from "./catalog-revision";
import { ConfigForm } from "./simulator-config-form";
import { FederationPreviewPanel } from "./simulator-federation";
import { Difference, FinalList } from "./simulator-final-list";
import { FORMATS, type Pane, type PaneChange, type PaneState, paneValues, readPane, simulatorParsers, toolListConfig } from "./simulator-state";
import { Trace, WhyMissing } from "./simulator-trace";
import { WarningList } from "./warning-list";

/** How long typing the "why" question rests before it goes to the URL. */
const QUESTION_DEBOUNCE_MS = 300;

type Format = (typeof FORMATS)[number];

interface Props {
  catalogId: string;
  agents: { name: string; mode: string }[];
  knownModels: KnownModel[];
}

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
      <SimulatorToolbar
        format={format}
        onFormat={(format) => setValues({ format })}
        comparing={paneB !== undefined}
        onCompare={() =>
          setValues({
            ...paneValues("a", paneA),
            ...paneValues("b", { ...fallbackA, model: "claude-sonnet-4-5", agent: agents.some((a) => a.name === "plan") ? "plan" : primaryAgent }),
          })
        }
        onStop={() => setValues(paneValues("b", undefined))}
      />
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

/** The list format for both panes, and starting or stopping a comparison with a second configuration. */
function SimulatorToolbar({
  format,
  onFormat,
  comparing,
  onCompare,
  onStop,
}: {
  format: Format;
  onFormat: (format: Format) => void;
  comparing: boolean;
  onCompare: () => void;
  onStop: () => void;
}) {
  return (
    <div className="toolbar">
      <label className="row small">
        Format
        <select value={format} onChange={(event) => onFormat(event.target.value as Format)} data-testid="format">
          {FORMATS.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
      <span style={{ flex: 1 }} />
      {comparing ? (
        <button type="button" onClick={onStop}>
          Stop comparing
        </button>
      ) : (
        <button type="button" data-testid="compare" onClick={onCompare}>
          Compare side by side
        </button>
      )}
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
      <FederationPreviewPanel catalogId={catalogId} config={config} />
    </section>
  );
}
