import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { conversationFinds } from "@/db/queries/decisions";
import { getConversation, listTranscript } from "@/db/queries/conversations";
import {
  deleteUsageReports,
  idBeforeNewest,
  insertUsageReports,
  type NewUsageReport,
  readLearningSetting,
  usageReportsAfter,
  writeLearningSetting,
  type LearningSetting,
} from "@/db/queries/usage-reports";
import { ToolshedError } from "@/lib/errors";
import { log } from "@/lib/observability/log";
import { computeToolList } from "@/lib/pipeline/tool-list";
import { toCandidates } from "@/lib/selection/candidates";
import { DEFAULT_LEARNING, hasContentWords, LearnedEvidence } from "@/lib/selection/learned";
import { calibrateWeight, MIN_CALIBRATION_EVENTS } from "@/lib/selection/learned-calibration";
import { attributeByText, LEARNING_POOL } from "@/lib/selection/learned-fusion";
import type { LocalIndex } from "@/lib/selection/local/bm25f";
import type { SelectionLearning } from "@/lib/selection/selector";
import { registryView, rejectionReason } from "@/lib/selection/verify";
import type { Tool } from "@/lib/tools/types";
import { catalogState } from "./catalog-states";

/** How stale an instance's learned evidence may get before it reads what other instances stored. */
const REFRESH_MS = 1_000;
/** Reports read per query while catching up (1,000 of 4,000 characters are a read of about 10 ms). */
const CATCH_UP_BATCH = 1_000;
/** Reports learned between two pauses while catching up: 200 of 4,000 characters take about 20 ms, so a large catch-up does not hold other requests up. */
const LEARN_BETWEEN_PAUSES = 200;
const yieldToOtherWork = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * The most reports a catalog's learning holds in memory: the newest. Beyond, a catalog starts again
 * from its newest (older ones weigh little by then, and retention deletes them after 180 days).
 */
const MAX_REPORTS_IN_MEMORY = 200_000;
/** A use that a ToolSearch found after the preselection missed it: the strongest signal there is. */
const SEARCH_FIND_STRENGTH = 2;

interface CatalogLearning {
  evidence: LearnedEvidence;
  /** The last report read into `evidence`. */
  lastId: number;
  setting: LearningSetting;
  checkedAt: number;
  refreshing?: Promise<void>;
  /** The weight calibrated on the catalog's own reports (learned-calibration.ts), and on how many. */
  calibration?: { weight: number; reports: number };
  calibrating?: Promise<void>;
}

// Per database and catalog, on globalThis: the routes are bundled apart, each with its own copy of this module.
const shared = globalThis as unknown as { toolshedLearning?: Map<Db, Map<string, CatalogLearning>> };
shared.toolshedLearning ??= new Map();
const learningByDb = shared.toolshedLearning;

/** Reads the switch and the reports stored since the last read; a reset (a new generation) starts from nothing. */
async function catchUp(db: Db, catalogId: string, entry: CatalogLearning): Promise<void> {
  const setting = await readLearningSetting(db, catalogId);
  if (setting.generation !== entry.setting.generation || entry.evidence.size > MAX_REPORTS_IN_MEMORY) {
    entry.evidence = new LearnedEvidence();
    entry.lastId = await idBeforeNewest(db, catalogId, MAX_REPORTS_IN_MEMORY);
    entry.calibration = undefined;
  }
  entry.setting = setting;
  for (;;) {
    const rows = await usageReportsAfter(db, catalogId, entry.lastId, CATCH_UP_BATCH);
    for (const [index, row] of rows.entries()) {
      if (index % LEARN_BETWEEN_PAUSES === LEARN_BETWEEN_PAUSES - 1) await yieldToOtherWork();
      entry.evidence.add({ tool: row.tool, text: row.text, caller: row.caller, at: row.createdAt.getTime(), strength: row.strength });
      entry.lastId = row.id;
    }
    if (rows.length < CATCH_UP_BATCH) break;
  }
  entry.checkedAt = Date.now();
}

function refreshOnce(db: Db, catalogId: string, entry: CatalogLearning): Promise<void> {
  entry.refreshing ??= catchUp(db, catalogId, entry).finally(() => {
    entry.refreshing = undefined;
  });
  return entry.refreshing;
}

/**
 * A catalog's learned evidence in this instance. The first read loads it; later ones use what is
 * here and, once it is a second old, catch up in the background (other instances' reports arrive
 * within about a second). `fresh` waits for a catch-up that starts now: after this instance stored reports.
 */
async function catalogLearning(db: Db, catalogId: string, { fresh = false } = {}): Promise<CatalogLearning> {
  let byCatalog = learningByDb.get(db);
  if (byCatalog === undefined) {
    byCatalog = new Map();
    learningByDb.set(db, byCatalog);
  }
  let entry = byCatalog.get(catalogId);
  if (entry === undefined) {
    entry = { evidence: new LearnedEvidence(), lastId: 0, setting: { enabled: true, generation: -1 }, checkedAt: 0 };
    byCatalog.set(catalogId, entry);
  }
  if (fresh) {
    await entry.refreshing?.catch(() => undefined);
    await refreshOnce(db, catalogId, entry);
  } else if (entry.checkedAt === 0) await refreshOnce(db, catalogId, entry);
  else if (Date.now() - entry.checkedAt > REFRESH_MS) {
    refreshOnce(db, catalogId, entry).catch((error) =>
      log.warn({ err: error }, `Reading what catalog "${catalogId}" learned failed; using what this instance has:`),
    );
  }
  return entry;
}

/** Recalibrated once the reports have grown by a tenth since the last calibration. */
const RECALIBRATE_GROWTH = 1.1;

/** Events of a usage report attributed and stored between two pauses (at most about 20 ms of work, see MAX_ATTRIBUTED_TASKS). */
const YIELD_EVERY_EVENTS = 20;

/** Calibrates the catalog's learning weight in the background, between other requests; one calibration at a time. */
function calibrateInBackground(catalogId: string, entry: CatalogLearning, catalogIndex: () => LocalIndex): void {
  const { evidence } = entry;
  entry.calibrating ??= (async () => {
    const index = catalogIndex();
    const reports = evidence.size;
    const weight = await calibrateWeight(
      evidence,
      DEFAULT_LEARNING,
      (request) => index.rank([{ role: "user", content: request }], LEARNING_POOL),
      new Set(evidence.events.map((event) => event.tool)),
      { documents: index.size, frequency: (term) => index.documentFrequency(term) },
      Date.now(),
      yieldToOtherWork,
    );
    // A reset while calibrating made this evidence stale: its weight is not the catalog's any more.
    if (weight !== undefined && entry.evidence === evidence) entry.calibration = { weight, reports };
  })()
    .catch((error) => log.warn({ err: error }, `Calibrating what catalog "${catalogId}" learned failed:`))
    .finally(() => {
      entry.calibrating = undefined;
    });
}

/**
 * What the local selector adds from use, or undefined when learning is off or nothing was learned.
 * Its weight is calibrated on the catalog's own reports, in the background, against the catalog's
 * index (`catalogIndex`); until there are enough, the default applies.
 */
export async function selectionLearning(db: Db, catalogId: string, catalogIndex: () => LocalIndex): Promise<SelectionLearning | undefined> {
  const entry = await catalogLearning(db, catalogId);
  const { evidence, setting, calibration } = entry;
  if (!setting.enabled || evidence.size === 0) return undefined;
  const due = calibration === undefined ? evidence.size >= MIN_CALIBRATION_EVENTS : evidence.size >= calibration.reports * RECALIBRATE_GROWTH;
  if (due) calibrateInBackground(catalogId, entry, catalogIndex);
  const weight = calibration?.weight ?? DEFAULT_LEARNING.weight;
  if (weight === 0) return undefined;
  return { scores: (request, catalog) => evidence.scores(request, Date.now(), catalog), weight };
}

export interface LearningStatus {
  enabled: boolean;
  /** Reports learned from, and the tools they name. */
  reports: number;
  tools: number;
  /** What a full learned match weighs against the best description match, and whether the catalog's own reports chose it. */
  weight: number;
  calibrated: boolean;
}

export async function learningStatus(db: Db, catalogId: string): Promise<LearningStatus> {
  const { evidence, setting, calibration } = await catalogLearning(db, catalogId, { fresh: true });
  return {
    enabled: setting.enabled,
    reports: evidence.size,
    tools: evidence.toolCount,
    weight: calibration?.weight ?? DEFAULT_LEARNING.weight,
    calibrated: calibration !== undefined,
  };
}

/** What was learned for one tool: its most telling words, weighted as they are now, and its reports (aged). */
export async function learnedForTool(db: Db, catalogId: string, tool: string) {
  const { evidence, setting } = await catalogLearning(db, catalogId, { fresh: true });
  return { enabled: setting.enabled, ...evidence.learnedOf(tool) };
}

export async function setLearning(db: Db, catalogId: string, enabled: boolean): Promise<LearningStatus> {
  const { setting } = await catalogLearning(db, catalogId, { fresh: true });
  await writeLearningSetting(db, catalogId, { ...setting, enabled });
  return learningStatus(db, catalogId);
}

/** Forgets everything the catalog learned, in every instance (a new generation). Returns the reports deleted. */
export async function resetLearning(db: Db, catalogId: string): Promise<number> {
  const { setting } = await catalogLearning(db, catalogId, { fresh: true });
  await writeLearningSetting(db, catalogId, { ...setting, generation: setting.generation + 1 });
  const deleted = await deleteUsageReports(db, catalogId);
  await catalogLearning(db, catalogId, { fresh: true });
  return deleted;
}

export interface UsageEventInput {
  query: string;
  used: string[];
  conversationId?: string;
}

export interface UsageReportResult {
  accepted: number;
  ignored: { index: number; tool?: string; reason: string }[];
}

/** Why a tool reported as used cannot be learned from: it is not a usable tool of the catalog. */
function unusableReason(tool: Tool | undefined): string | undefined {
  if (!tool) return "not in the catalog";
  if (!tool.registered) return "its source is unavailable";
  if (!tool.enabled) return "disabled in the catalog";
  if (tool.heldBack) return "held back for review";
  return undefined;
}

const digest = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 22);

/**
 * Learns from reports of use (POST …/usage): each event's tools, checked against the catalog (and
 * against what `model` and `agent` may see, when given), with the words of the request attributed
 * per tool. A tool that a ToolSearch of the event's conversation found after its preselection had
 * not offered it weighs double. The same conversation, request and tool reported again counts once.
 */
export async function reportUsage(
  db: Db,
  catalogId: string,
  caller: string,
  report: { events: UsageEventInput[]; model?: string; agent?: string },
): Promise<UsageReportResult> {
  const state = await catalogState(db, catalogId);
  const byName = new Map(state.tools.map((tool) => [tool.name, tool]));
  let visibleReason: ((name: string) => string | undefined) | undefined;
  if (report.model !== undefined && report.agent !== undefined) {
    if (!state.agents.some((agent) => agent.name === report.agent)) throw new ToolshedError("bad_request", `Unknown agent "${report.agent}".`, "agent");
    const view = registryView(state.tools, computeToolList(state, { model: report.model, agent: report.agent, format: "ai-sdk" }));
    visibleReason = (name) => rejectionReason(name, view);
  }
  const ignored: UsageReportResult["ignored"] = [];
  const rows: NewUsageReport[] = [];
  let accepted = 0;
  for (const [index, event] of report.events.entries()) {
    // Attributing and storing a request's words is work that holds the server: a report of 1,000
    // events is stored in parts, with other requests let through between them.
    if (index % YIELD_EVERY_EVENTS === YIELD_EVERY_EVENTS - 1) {
      await insertUsageReports(db, rows.splice(0));
      await yieldToOtherWork();
    }
    if (!hasContentWords(event.query)) {
      ignored.push({ index, reason: "its query has no words to learn from (only stopwords, punctuation or control characters)" });
      continue;
    }
    const usable: string[] = [];
    for (const name of new Set(event.used)) {
      const reason = unusableReason(byName.get(name)) ?? visibleReason?.(name);
      if (reason) ignored.push({ index, tool: name, reason });
      else usable.push(name);
    }
    if (usable.length === 0) continue;
    accepted++;
    const finds = event.conversationId ? await conversationFinds(db, catalogId, event.conversationId) : undefined;
    for (const [tool, text] of attributedWords(event.query, usable, byName)) {
      const missedThenFound = finds?.searched.has(tool) === true && !finds.preselected.has(tool);
      rows.push({
        catalogId,
        tool,
        text,
        caller,
        strength: missedThenFound ? SEARCH_FIND_STRENGTH : 1,
        dedupeKey: event.conversationId ? `report:${digest(`${event.conversationId}\n${event.query}\n${tool}`)}` : null,
      });
    }
  }
  await insertUsageReports(db, rows);
  await catalogLearning(db, catalogId, { fresh: true });
  return { accepted, ignored };
}

/** Each used tool and the words of the request that asked for it. */
function attributedWords(query: string, used: readonly string[], byName: ReadonlyMap<string, Tool>): Map<string, string> {
  return attributeByText(query, toCandidates(used.map((name) => byName.get(name)!)));
}

/**
 * Learns from a tool call seen in a conversation (the gateway's, the playground's): the tool served
 * the conversation's latest user message (the step of it that the tool's text matches, among the
 * tools the conversation was offered) and, when a ToolSearch found it, the words the model searched
 * with. Found by a search after the preselection missed it, it weighs double. Runs after the call
 * has answered; the caller logs a failure.
 */
export async function learnFromCall(db: Db, catalogId: string, conversationId: string, tool: string): Promise<void> {
  const conversation = await getConversation(db, conversationId, catalogId);
  // A reply such as "yes, go ahead" says nothing of the tool: the request it answers does.
  const request = (await listTranscript(db, conversationId)).findLast((message) => message.role === "user" && hasContentWords(message.content));
  const finds = await conversationFinds(db, catalogId, conversationId);
  const searchedWith = finds.searched.get(tool);
  if (!request && searchedWith === undefined) return;
  const byName = new Map((await catalogState(db, catalogId)).tools.map((candidate) => [candidate.name, candidate]));
  if (unusableReason(byName.get(tool))) return;
  const offered = [...new Set([tool, ...finds.preselected, ...finds.searched.keys()])].filter((name) => byName.has(name));
  const asked = request ? (attributedWords(request.content, offered, byName).get(tool) ?? request.content) : "";
  const missedThenFound = searchedWith !== undefined && !finds.preselected.has(tool);
  await insertUsageReports(db, [
    {
      catalogId,
      tool,
      text: [asked, searchedWith ?? ""].join(" ").trim(),
      caller: conversation.owner ?? `conversation:${conversationId}`,
      strength: missedThenFound ? SEARCH_FIND_STRENGTH : 1,
      // One report per tool and user message (or search): calling a tool again for the same request teaches nothing new.
      dedupeKey: `call:${digest(`${conversationId}\n${request?.id ?? ""}\n${searchedWith ?? ""}\n${tool}`)}`,
    },
  ]);
  await catalogLearning(db, catalogId, { fresh: true });
}
