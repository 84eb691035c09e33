import { parseAsArrayOf, parseAsString, parseAsStringLiteral } from "nuqs/server";
import type { ToolListConfig } from "./api-client";

export const FORMATS = ["ai-sdk", "openai", "anthropic"] as const;

export type Pane = "a" | "b";

/** One pane's configuration and its "why does it not see…" question. */
export interface PaneState {
  model: string;
  agent: string;
  /** Empty: the agent's name, as the pipeline defaults it. */
  mode: string;
  /** Empty: the provider the model id implies. */
  provider: string;
  flags: string[];
  why: string;
}

/** A change to a pane, made to its state as it is when the change applies. */
export type PaneChange = (pane: PaneState) => PaneState;

const text = parseAsString.withDefault("");
/** Flags are names without commas (the flag field splits on them). */
const flagList = parseAsArrayOf(parseAsString, ",").withDefault([]);

/**
 * Everything the simulator shows, by its key in the URL: pane A's keys bare, pane B's prefixed with
 * "b" (a pane is there when its model and agent are). The page keeps it with nuqs, so a shared or
 * reloaded link shows exactly the same, and each pane updates only its own keys.
 */
export const simulatorParsers = {
  format: parseAsStringLiteral(FORMATS).withDefault("ai-sdk"),
  model: parseAsString,
  agent: parseAsString,
  mode: text,
  provider: text,
  flags: flagList,
  why: text,
  bmodel: parseAsString,
  bagent: parseAsString,
  bmode: text,
  bprovider: text,
  bflags: flagList,
  bwhy: text,
};

export type SimulatorValues = { [Key in keyof typeof simulatorParsers]: ReturnType<(typeof simulatorParsers)[Key]["parseServerSide"]> };

const keyOf = (pane: Pane, key: keyof PaneState) => (pane === "a" ? key : `b${key}`) as keyof SimulatorValues;

/** A pane's configuration, or undefined when the URL has none for it (pane A then takes `fallback`). */
export function readPane(values: SimulatorValues, pane: Pane): PaneState | undefined {
  const model = values[keyOf(pane, "model")] as string | null;
  const agent = values[keyOf(pane, "agent")] as string | null;
  if (!model || !agent) return undefined;
  return {
    model,
    agent,
    mode: values[keyOf(pane, "mode")] as string,
    provider: values[keyOf(pane, "provider")] as string,
    flags: values[keyOf(pane, "flags")] as string[],
    why: values[keyOf(pane, "why")] as string,
  };
}

/** The URL keys that set a pane to `state` (or remove it), touching no key of the other pane. */
export function paneValues(pane: Pane, state: PaneState | undefined): Partial<SimulatorValues> {
  const keys: (keyof PaneState)[] = ["model", "agent", "mode", "provider", "flags", "why"];
  return Object.fromEntries(keys.map((key) => [keyOf(pane, key), state ? state[key] : null]));
}

/** What the tool-list API is asked for a pane. */
export function toolListConfig(pane: PaneState, format: SimulatorValues["format"]): ToolListConfig {
  return {
    model: pane.model,
    agent: pane.agent,
    mode: pane.mode || undefined,
    provider: pane.provider || undefined,
    flags: pane.flags,
    format,
  };
}

/** A pane's text fields as they apply: what is typed, trimmed, and the flags typed to add, as names. */
export interface TypedSettings {
  model: string;
  mode: string;
  newFlags: string[];
}

/** Flags typed into the flag field: names, comma-separated (a flag has no comma: see flagList). */
export function typedFlags(text: string): string[] {
  return text
    .split(",")
    .map((flag) => flag.trim())
    .filter(Boolean);
}

/**
 * What applying one typed field changes in a pane, or undefined when it changes nothing: a value
 * already in use, an empty model (a pane always has one), no flag typed. Typed flags are added.
 */
export function typedChange(field: keyof TypedSettings, typed: TypedSettings, applied: PaneState): PaneChange | undefined {
  if (field === "model") return typed.model && typed.model !== applied.model ? (state) => ({ ...state, model: typed.model }) : undefined;
  if (field === "mode") return typed.mode !== applied.mode ? (state) => ({ ...state, mode: typed.mode }) : undefined;
  return typed.newFlags.length > 0 ? (state) => ({ ...state, flags: [...new Set([...state.flags, ...typed.newFlags])] }) : undefined;
}
