import "server-only";
import { checkImportSize, parseImport, type ImportedTool } from "@/lib/catalogs/exchange";
import { ToolshedError } from "@/lib/errors";
import type { FieldError } from "@/lib/tools/validate";
import type { Db } from "./client";
import { importDrafts, type ImportResult } from "./queries/tool-import";

/**
 * An import to run: the document as UTF-8 bytes or text of JSON (an HTTP body, a file: decoded
 * and parsed where the job runs), or already parsed.
 */
export interface ImportJobInput {
  catalogId: string;
  actor: string;
  bytes?: Uint8Array;
  text?: string;
  document?: unknown;
}

export interface ImportProgress {
  /** Tools validated so far (all of them once the job writes). */
  done: number;
  /** Tools in the document; 0 until it is read. */
  total: number;
  phase: "reading" | "validating" | "writing";
}

/** How often (in tools) validation reports progress. */
const PROGRESS_EVERY = 250;

function readDocument(input: ImportJobInput): unknown {
  // Like request.text(): invalid sequences become U+FFFD and a byte-order mark is dropped.
  const text = input.bytes ? new TextDecoder().decode(input.bytes) : input.text;
  if (text === undefined) return input.document;
  if (!text.trim()) throw new ToolshedError("bad_request", "The request body is empty; JSON was expected.");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolshedError("bad_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** parseImport's problems for a one-tool document, moved to the tool's place in the whole one. */
function relocated(problems: FieldError[], index: number): FieldError[] {
  return problems.map((problem) => ({ ...problem, field: problem.field.replace(/^tools\.0(?=\.|$)/, `tools.${index}`) }));
}

/**
 * parseImport, tool by tool, so that progress can be reported: the same checks, problems and
 * fields, all collected before anything is written (one error listing every problem).
 */
export function validateImport(document: unknown, report: (done: number, total: number) => void = () => {}): ImportedTool[] {
  const tools = (document as { tools?: unknown } | null)?.tools;
  if (document === null || typeof document !== "object" || Array.isArray(document) || !Array.isArray(tools)) return parseImport(document);
  checkImportSize(tools.length);
  // The document's own fields (format, version) once, then each tool in a document of its own.
  parseImport({ ...document, tools: [] });
  const problems: FieldError[] = [];
  const valid: ImportedTool[] = [];
  const seen = new Map<string, number>();
  report(0, tools.length);
  tools.forEach((raw, index) => {
    try {
      valid.push(parseImport({ ...document, tools: [raw] })[0]);
    } catch (error) {
      if (!(error instanceof ToolshedError) || !error.problems) throw error;
      problems.push(...relocated(error.problems, index));
    }
    const name = (raw as { name?: unknown } | null)?.name;
    if (typeof name === "string") {
      const first = seen.get(name);
      if (first !== undefined) problems.push({ field: `tools.${index}.name`, message: `"${name}" appears twice (also at tools.${first}).` });
      else seen.set(name, index);
    }
    if ((index + 1) % PROGRESS_EVERY === 0) report(index + 1, tools.length);
  });
  if (problems.length > 0) throw ToolshedError.fromFieldErrors(problems, "Import rejected");
  return valid;
}

/**
 * One import from document to database: read, validate every tool, then write them all in one
 * immediate transaction (db/queries/tool-import.ts), so a failure anywhere writes nothing. Runs
 * in the import worker (db/import-worker.ts), or inline for an in-memory database.
 */
export async function runImportJob(db: Db, input: ImportJobInput, report: (progress: ImportProgress) => void = () => {}): Promise<ImportResult> {
  report({ done: 0, total: 0, phase: "reading" });
  const document = readDocument(input);
  const drafts = validateImport(document, (done, total) => report({ done, total, phase: "validating" }));
  report({ done: drafts.length, total: drafts.length, phase: "writing" });
  return importDrafts(db, input.catalogId, drafts, input.actor);
}
