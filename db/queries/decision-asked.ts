import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DecisionOutcome } from "@/lib/selection/types";
import { isPostgres, type Db } from "../client";
import { decisions } from "../tables";

/**
 * What a decision was asked, for the decisions list and its filters: a ToolSearch call's query,
 * a preselection's last user message, a gateway call's tool, the resource or prompt a read or get named. A preselection's messages are
 * usually kept by its conversation, not in its input (db/queries/decisions.ts `compactInput`):
 * then the last user message up to the one it refers to is read from there.
 */
export function askedText(db: Db): SQL<string | null> {
  if (isPostgres(db)) {
    const input = sql`(${decisions.input})::jsonb`;
    const messages = sql`CASE WHEN jsonb_typeof(${input} -> 'messages') = 'array' THEN ${input} -> 'messages' ELSE '[]'::jsonb END`;
    return sql<string | null>`CASE ${decisions.kind}
      WHEN 'tool-search' THEN ${input} ->> 'query'
      WHEN 'call' THEN ${input} ->> 'tool'
      WHEN 'resource-read' THEN ${input} ->> 'item'
      WHEN 'prompt-get' THEN ${input} ->> 'item'
      ELSE COALESCE(
        (SELECT kept.message ->> 'content' FROM jsonb_array_elements(${messages}) WITH ORDINALITY AS kept(message, position)
          WHERE kept.message ->> 'role' = 'user' ORDER BY kept.position DESC LIMIT 1),
        (SELECT said.content FROM conversation_messages AS said
          WHERE said.conversation_id = ${decisions.conversationId} AND said.role = 'user'
            AND said.id <= ((${input} -> 'transcript' ->> 'through')::bigint) ORDER BY said.id DESC LIMIT 1))
    END`;
  }
  return sql<string | null>`CASE ${decisions.kind}
    WHEN 'tool-search' THEN json_extract(${decisions.input}, '$.query')
    WHEN 'call' THEN json_extract(${decisions.input}, '$.tool')
    WHEN 'resource-read' THEN json_extract(${decisions.input}, '$.item')
    WHEN 'prompt-get' THEN json_extract(${decisions.input}, '$.item')
    ELSE COALESCE(
      (SELECT json_extract(kept.value, '$.content') FROM json_each(${decisions.input}, '$.messages') AS kept
        WHERE json_extract(kept.value, '$.role') = 'user' ORDER BY kept.key DESC LIMIT 1),
      (SELECT said.content FROM conversation_messages AS said
        WHERE said.conversation_id = ${decisions.conversationId} AND said.role = 'user'
          AND said.id <= json_extract(${decisions.input}, '$.transcript.through') ORDER BY said.id DESC LIMIT 1))
  END`;
}

/** How much of what was asked the list carries: the rest shows on the decision's page. */
const ASKED_SHOWN = 500;

/** What was asked, cut for the list ("…" says it was). */
export function shownAsked(text: string | null): string | null {
  if (text === null) return null;
  return text.length > ASKED_SHOWN ? `${text.slice(0, ASKED_SHOWN)}…` : text;
}

/** Decisions whose question contains `text`, whatever its case. */
export function askedContains(db: Db, text: string): SQL {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return sql`lower(${askedText(db)}) LIKE ${pattern} ESCAPE '\\'`;
}

/** How many tools a preselection selected or a ToolSearch call found (0 for a call). */
function chosenCount(db: Db): SQL<number> {
  if (isPostgres(db)) {
    const list = sql`(${decisions.result})::jsonb -> (CASE ${decisions.kind} WHEN 'preselect' THEN 'selected' ELSE 'tools' END)`;
    return sql<number>`COALESCE(jsonb_array_length(CASE WHEN jsonb_typeof(${list}) = 'array' THEN ${list} END), 0)`;
  }
  return sql<number>`COALESCE(json_array_length(${decisions.result}, CASE ${decisions.kind} WHEN 'preselect' THEN '$.selected' ELSE '$.tools' END), 0)`;
}

function callOutcome(db: Db): SQL<string | null> {
  return isPostgres(db) ? sql`(${decisions.result})::jsonb ->> 'outcome'` : sql`json_extract(${decisions.result}, '$.outcome')`;
}

/**
 * Decisions by outcome: `chosen` (a preselection that selected, a ToolSearch call that found, a
 * gateway request that its server answered), `none` (a selection that came to nothing), `refused`
 * and `error` (gateway requests: tool calls, resource reads, prompt gets).
 */
export function withOutcome(db: Db, outcome: DecisionOutcome): SQL {
  const selection = sql`${decisions.kind} IN ('preselect', 'tool-search')`;
  const request = sql`${decisions.kind} IN ('call', 'resource-read', 'prompt-get')`;
  if (outcome === "chosen") return sql`((${selection} AND ${chosenCount(db)} > 0) OR (${request} AND ${callOutcome(db)} = 'ok'))`;
  if (outcome === "none") return sql`(${selection} AND ${chosenCount(db)} = 0)`;
  return sql`(${request} AND ${callOutcome(db)} = ${outcome})`;
}
