import { formattedTool, type ProviderFormat, type ProviderTools } from "../formats/provider-format";
import { definitionTokens } from "../formats/tokens";
import type { Tool } from "../tools/types";
import { definitionOutcomes, type Outcome } from "./definition-overrides";
import { applyDelegation } from "./delegation";
import { finalDefinition } from "./final";
import { type Fate, SCREEN_STAGES, screenerFor } from "./run";
import type { FinalTool, PipelineContext, PipelineTool, StageName, ToolNote, TraceEntry } from "./types";
import { type Identities, identitiesOf, patchedArray, patchedIdentities, patchedNumbers, type ToolEdit } from "./tool-edits";

// A frozen catalog state's tool list is kept as a ledger: what the pipeline made of each tool of
// the state, in the state's order. Every stage but delegation looks at one tool at a time, so the
// ledger of the next revision is the previous one with the entries of the changed tools made
// again (lib/pipeline/tool-edits.ts finds them), the rest copied as they are: no unchanged tool is
// looked at. Delegation looks at the skills and subagents as a whole, so an edit of one of those
// (or of the `task` or `skill` tool) makes the whole ledger again.

const STAGES: readonly StageName[] = [...SCREEN_STAGES, "delegation", "definition-overrides", "final"];
const DELEGATION = SCREEN_STAGES.length;
const OVERRIDES = DELEGATION + 1;
const FINAL = OVERRIDES + 1;
/** The stage of a tool the list hands over. */
const KEPT = 255;

type Formatted = ProviderTools[ProviderFormat];

interface StageNote {
  stage: number;
  note: ToolNote;
}

/** What the pipeline made of each tool of `tools`, by its position. */
export interface Ledger {
  tools: readonly Tool[];
  /** The stage that removed the tool, or KEPT. */
  stage: Uint8Array;
  removedNote: (ToolNote | undefined)[];
  changedNotes: (readonly StageNote[] | undefined)[];
  final: (FinalTool | undefined)[];
  formatted: (Formatted | undefined)[];
  tokens: Float64Array;
  /** The numbers of the entries' final tools, 0 for a tool removed: lists and their bodies are compared by these (see Identities). */
  finalIds: Identities;
}

/** One tool's entry in a ledger. */
interface Entry {
  stage: number;
  removedNote?: ToolNote;
  changedNotes?: readonly StageNote[];
  final?: FinalTool;
  formatted?: Formatted;
  tokens: number;
}

/** What entries are made with, for one context and format. */
export interface Kit {
  ctx: PipelineContext;
  format: ProviderFormat;
  fateOf: (tool: PipelineTool) => Fate;
  outcomeOf: ((tool: PipelineTool) => Outcome) | undefined;
}

export function kitFor(ctx: PipelineContext, format: ProviderFormat): Kit {
  return { ctx, format, fateOf: screenerFor(ctx), outcomeOf: definitionOutcomes(ctx) };
}

/** Tools the delegation stage reads or changes: a change of one changes what it says of the others. */
const delegates = (tool: Tool) => tool.source === "skill" || tool.source === "subagent" || tool.name === "task" || tool.name === "skill";

/** A tool's entry once the stages before overrides have kept it as `kept`, having said `said`. */
function keptEntry(kept: PipelineTool, said: readonly StageNote[], kit: Kit): Entry {
  const notes = [...said];
  const outcome = kit.outcomeOf?.(kept);
  if (outcome) for (const note of outcome.notes) notes.push({ stage: OVERRIDES, note });
  const { final, note } = finalDefinition(outcome?.tool ?? kept);
  if (note) notes.push({ stage: FINAL, note });
  return {
    stage: KEPT,
    changedNotes: notes.length > 0 ? notes : undefined,
    final,
    formatted: formattedTool(final, kit.format),
    tokens: definitionTokens(final, kit.format),
  };
}

/** The entry of a tool delegation does not look at. */
function plainEntry(tool: Tool, kit: Kit): Entry {
  const fate = kit.fateOf(tool);
  if (fate.kept === undefined)
    return { stage: fate.removedAt!, removedNote: fate.note, changedNotes: fate.changed.length > 0 ? fate.changed : undefined, tokens: 0 };
  return keptEntry(fate.kept, fate.changed, kit);
}

/**
 * The entries of the tools delegation looks at: their fates, then the delegation stage over those
 * it keeps (it hands every other tool on as it is). Undefined when two of them share a name, which
 * a catalog does not allow: the caller computes the list stage by stage then.
 */
function delegatedEntries(tools: readonly Tool[], kit: Kit): Entry[] | undefined {
  const fates = tools.map((tool) => kit.fateOf(tool));
  const survivors = fates.flatMap((fate) => (fate.kept ? [fate.kept] : []));
  if (new Set(survivors.map((tool) => tool.name)).size !== survivors.length) return undefined;
  const delegated = applyDelegation(survivors, kit.ctx);
  const removed = new Map(delegated.removed.map((note) => [note.name, note]));
  const changed = new Map<string, ToolNote[]>();
  for (const note of delegated.changed) changed.set(note.name, [...(changed.get(note.name) ?? []), note]);
  let next = 0;
  return fates.map((fate): Entry => {
    const said = fate.changed.length > 0 ? fate.changed : undefined;
    if (fate.kept === undefined) return { stage: fate.removedAt!, removedNote: fate.note, changedNotes: said, tokens: 0 };
    const note = removed.get(fate.kept.name);
    if (note) return { stage: DELEGATION, removedNote: note, changedNotes: said, tokens: 0 };
    const notes = (changed.get(fate.kept.name) ?? []).map((each) => ({ stage: DELEGATION, note: each }));
    return keptEntry(delegated.tools[next++], [...fate.changed, ...notes], kit);
  });
}

function ledgerOf(tools: readonly Tool[], entries: readonly Entry[]): Ledger {
  const ledger: Ledger = {
    tools,
    stage: new Uint8Array(entries.length),
    removedNote: new Array(entries.length),
    changedNotes: new Array(entries.length),
    final: new Array(entries.length),
    formatted: new Array(entries.length),
    tokens: new Float64Array(entries.length),
    finalIds: identitiesOf(entries.map((entry) => entry.final)),
  };
  entries.forEach((entry, index) => {
    setEntry(ledger, index, entry);
  });
  return ledger;
}

/** Writes a tool's entry at its position in the ledger's arrays. */
function setEntry(ledger: Ledger, at: number, entry: Entry) {
  ledger.stage[at] = entry.stage;
  ledger.removedNote[at] = entry.removedNote;
  ledger.changedNotes[at] = entry.changedNotes;
  ledger.final[at] = entry.final;
  ledger.formatted[at] = entry.formatted;
  ledger.tokens[at] = entry.tokens;
}

/** The ledger of a whole state; undefined when it must be computed stage by stage (see delegatedEntries). */
export function buildLedger(tools: readonly Tool[], kit: Kit): Ledger | undefined {
  const delegating: number[] = [];
  const entries = tools.map((tool, index) => {
    if (!delegates(tool)) return plainEntry(tool, kit);
    delegating.push(index);
    return undefined;
  });
  const delegated = delegatedEntries(
    delegating.map((index) => tools[index]),
    kit,
  );
  if (delegated === undefined) return undefined;
  delegating.forEach((index, position) => {
    entries[index] = delegated[position];
  });
  return ledgerOf(tools, entries as Entry[]);
}

/** What a ledger's list is made of (see listOf). */
export interface Listed {
  final: FinalTool[];
  finalIds: Identities;
  formatted: Formatted[];
  trace: TraceEntry[];
  counts: number[];
  total: number;
}

/**
 * The ledger and list of `tools` from the ledger and list of an earlier state made in the same
 * context, given the edits from its tools to these; undefined when an edit touches a tool
 * delegation looks at. When every edit is in place (as many tools in as out), the earlier ledger's
 * arrays are written over, not copied: the caller drops the earlier ledger. When besides every
 * tool edited is handed over before and after with no note, the list is the earlier one with those
 * tools replaced, its trace the same.
 */
export function patchedLedger(
  earlier: Ledger,
  earlierList: Listed,
  tools: readonly Tool[],
  edits: readonly ToolEdit[],
  kit: Kit,
): { ledger: Ledger; listed: Listed } | undefined {
  for (const edit of edits) {
    for (let index = edit.from; index < edit.from + edit.removed; index++) if (delegates(earlier.tools[index])) return undefined;
    if (edit.inserted.some(delegates)) return undefined;
  }
  const made = edits.map((edit) => edit.inserted.map((tool) => plainEntry(tool, kit)));
  const numbers = identitiesOf(made.flat().map((entry) => entry.final));
  if (!edits.every((edit) => edit.removed === edit.inserted.length) || numbers.generation !== earlier.finalIds.generation) {
    const ledger = copiedLedger(earlier, tools, edits, made);
    return { ledger, listed: listOf(ledger) };
  }
  const replaced = edits.flatMap((edit, index) => made[index].map((entry, offset) => ({ at: edit.from + offset, entry })));
  // The list first: it reads what the ledger said of the edited tools before they are written over.
  const listed = listWithReplaced(earlier, earlierList, replaced, numbers.ids);
  replaced.forEach(({ at, entry }, index) => {
    setEntry(earlier, at, entry);
    earlier.finalIds.ids[at] = numbers.ids[index];
  });
  const ledger = { ...earlier, tools };
  return { ledger, listed: listed ?? listOf(ledger) };
}

function copiedLedger(earlier: Ledger, tools: readonly Tool[], edits: readonly ToolEdit[], made: readonly (readonly Entry[])[]): Ledger {
  const field = <K extends keyof Entry>(key: K) => made.map((entries) => entries.map((entry) => entry[key]));
  const final = patchedArray(earlier.final, edits, field("final"));
  return {
    tools,
    stage: patchedNumbers(earlier.stage, edits, field("stage") as number[][]),
    removedNote: patchedArray(earlier.removedNote, edits, field("removedNote")),
    changedNotes: patchedArray(earlier.changedNotes, edits, field("changedNotes")),
    final,
    formatted: patchedArray(earlier.formatted, edits, field("formatted")),
    tokens: patchedNumbers(earlier.tokens, edits, field("tokens") as number[][]),
    finalIds: patchedIdentities(earlier.finalIds, edits, field("final")) ?? identitiesOf(final),
  };
}

/**
 * The ledger's earlier list with the entries at `at` replaced, `ids` their final tools' numbers, when
 * each is handed over before and after with no note (the trace is the same then); else undefined.
 * Copying the list's arrays is several times cheaper than walking the ledger again (listOf).
 */
function listWithReplaced(earlier: Ledger, list: Listed, replaced: readonly { at: number; entry: Entry }[], ids: Uint32Array): Listed | undefined {
  const quiet = (stage: number, notes: readonly StageNote[] | undefined) => stage === KEPT && notes === undefined;
  if (!replaced.every(({ at, entry }) => quiet(earlier.stage[at], earlier.changedNotes[at]) && quiet(entry.stage, entry.changedNotes))) return undefined;
  const [final, formatted, counts, finalIds] = [Array.from(list.final), Array.from(list.formatted), Array.from(list.counts), list.finalIds.ids.slice()];
  let [total, kept, cursor] = [list.total, 0, 0];
  replaced.forEach(({ at, entry }, index) => {
    for (; cursor < at; cursor++) if (earlier.stage[cursor] === KEPT) kept++;
    final[kept] = entry.final!;
    formatted[kept] = entry.formatted!;
    total += entry.tokens - counts[kept];
    counts[kept] = entry.tokens;
    finalIds[kept] = ids[index];
  });
  return { final, finalIds: { generation: list.finalIds.generation, ids: finalIds }, formatted, trace: list.trace, counts, total };
}

/** The list a ledger stands for: its tools in order with their numbers, the trace of every stage, and the token total. */
export function listOf(ledger: Ledger): Listed {
  const { stage, removedNote, changedNotes, tokens } = ledger;
  // Made at their length: grown by push, the three arrays of 50,000 tools cost twice the time and their garbage.
  let keptCount = 0;
  for (let index = 0; index < stage.length; index++) if (stage[index] === KEPT) keptCount++;
  const final = new Array<FinalTool>(keptCount);
  const formatted = new Array<Formatted>(keptCount);
  const counts = new Array<number>(keptCount);
  const finalIds = new Uint32Array(keptCount);
  const removed: ToolNote[][] = STAGES.map(() => []);
  const changed: ToolNote[][] = STAGES.map(() => []);
  let total = 0;
  let kept = 0;
  for (let index = 0; index < stage.length; index++) {
    const at = stage[index];
    if (at === KEPT) {
      final[kept] = ledger.final[index]!;
      formatted[kept] = ledger.formatted[index]!;
      finalIds[kept] = ledger.finalIds.ids[index];
      counts[kept++] = tokens[index];
      total += tokens[index];
    } else removed[at].push(removedNote[index]!);
    const notes = changedNotes[index];
    if (notes !== undefined) for (const { stage: noted, note } of notes) changed[noted].push(note);
  }
  let remaining = stage.length;
  const trace = STAGES.map((name, index): TraceEntry => {
    remaining -= removed[index].length;
    return { stage: name, removed: removed[index], changed: changed[index], remaining };
  });
  return { final, finalIds: { generation: ledger.finalIds.generation, ids: finalIds }, formatted, trace, counts, total };
}
