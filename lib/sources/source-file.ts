import "server-only";
import { readFile, stat } from "node:fs/promises";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type YAMLError } from "yaml";
import { z } from "zod";

/** A problem with one file of a source folder, reported beside the files that did load. */
export interface SourceLoadError {
  file: string;
  /** 1-based, when the problem is on one line of the file. */
  line?: number;
  message: string;
}

/** Thrown by the file parsers; `message` names the file and line, `detail` is the problem alone. */
export class SourceFileError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly line?: number,
  ) {
    super(`${file}${line === undefined ? "" : `:${line}`}: ${detail}`);
    this.name = "SourceFileError";
  }

  toLoadError(): SourceLoadError {
    return { file: this.file, ...(this.line === undefined ? {} : { line: this.line }), message: this.detail };
  }
}

const FENCE = /^---\s*$/;

/** A source file's front matter, checked, and its body. */
export interface FrontMatter<T> {
  data: T;
  /** The markdown after the front matter, trimmed. */
  body: string;
  /**
   * The 1-based line in the file of a key or list item, by its path in the front matter (e.g.
   * ["permissions", 2, "bash"]); where the path leads nowhere, the line of the last step found.
   */
  lineOf(path: readonly PropertyKey[]): number | undefined;
}

/** How a value that is not what a field expects is named in a message. */
export function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value instanceof Map) return "a map";
  if (typeof value === "string") return `"${value}"`;
  return "nothing";
}

/** A field that holds text: a list or a map there is an error naming the field. Trimmed. */
export const textField = (field: string) =>
  z.string({ error: (issue) => `"${field}" must be text, not ${kindOf(issue.input)}.` }).transform((value) => value.trim());

// What the YAML parser says, with what to do about it where its words are not enough.
function yamlHint(problem: YAMLError): string | undefined {
  switch (problem.code) {
    case "BLOCK_AS_IMPLICIT_KEY":
      return 'Unexpected ": " in a value: quote a value that contains ": ", or check the indentation';
    case "MULTILINE_IMPLICIT_KEY":
      return 'Expected "key: value", with the key and its colon on one line';
    case "TAB_AS_INDENT":
      return "Tabs cannot be used for indentation";
    case "MISSING_CHAR":
      if (/quote/.test(problem.message)) return "A quoted value is not closed";
      if (/map values/.test(problem.message)) return 'Expected "key: value"; the lines of a value that goes on below its key must be indented';
      return undefined;
    default:
      return undefined;
  }
}

class FrontMatterReader {
  private readonly lines = new LineCounter();
  readonly doc: Document.Parsed;

  constructor(
    private readonly file: string,
    /** The YAML text, which starts on the file's second line. */
    yaml: string,
  ) {
    this.doc = parseDocument(yaml, { schema: "failsafe", lineCounter: this.lines, uniqueKeys: true, prettyErrors: false });
  }

  /** The file's line of an offset in the YAML text. */
  lineAt(offset: number): number {
    return this.lines.linePos(offset).line + 1;
  }

  private nodeLine(node: unknown): number | undefined {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? this.lineAt(range[0]) : undefined;
  }

  fail(message: string, line: number | undefined): never {
    throw new SourceFileError(this.file, message, line);
  }

  /** Syntax errors (and warnings: an unknown tag would be read as plain text), unresolved aliases, a top level that is not a map. */
  check(): void {
    const problem = this.doc.errors[0] ?? this.doc.warnings[0];
    if (problem) this.fail(this.describe(problem), this.problemLine(problem));
    visit(this.doc, {
      Alias: (_key, alias) => {
        if (!alias.resolve(this.doc)) this.fail(`The alias "*${alias.source}" refers to no anchor "&${alias.source}" before it.`, this.nodeLine(alias));
      },
    });
    const contents = this.doc.contents;
    if (contents !== null && !isMap(contents)) {
      this.fail('The front matter must be "key: value" lines, not a list or a single value.', this.nodeLine(contents));
    }
    for (const pair of contents?.items ?? []) {
      if (!isScalar(pair.key)) this.fail("A key of the front matter must be a name, not a list or a map.", this.nodeLine(pair.key));
    }
  }

  private describe(problem: YAMLError): string {
    if (problem.code === "DUPLICATE_KEY") {
      const key = this.keyAt(problem.pos[0]);
      if (key !== undefined) return `"${key}" is given twice.`;
    }
    const said = problem.message.replace(/\.?$/, "");
    const hint = yamlHint(problem);
    return hint ? `${hint} (YAML: ${said}).` : `Invalid YAML: ${said}.`;
  }

  /** An unclosed quote is reported where the text ends; the line that opens it is more use. */
  private problemLine(problem: YAMLError): number {
    if (problem.code === "MISSING_CHAR") {
      let opened: number | undefined;
      visit(this.doc, {
        Scalar: (_key, scalar) => {
          const range = scalar.range;
          if ((scalar.type === "QUOTE_DOUBLE" || scalar.type === "QUOTE_SINGLE") && range && range[0] <= problem.pos[0] && problem.pos[0] <= range[2])
            opened = range[0];
        },
      });
      if (opened !== undefined) return this.lineAt(opened);
    }
    return this.lineAt(problem.pos[0]);
  }

  private keyAt(offset: number): string | undefined {
    let found: string | undefined;
    visit(this.doc, {
      Pair: (_key, pair) => {
        if (isScalar(pair.key) && pair.key.range?.[0] === offset) found = String(pair.key.value);
      },
    });
    return found;
  }

  /** The top-level keys with their values: every scalar a string ("" when empty), lists as arrays, maps as `Map`s in file order. */
  values(): Record<string, unknown> {
    let value: unknown;
    try {
      value = this.doc.toJS({ mapAsMap: true, maxAliasCount: 100 });
    } catch (error) {
      this.fail(`Invalid YAML: ${error instanceof Error ? error.message : String(error)}`, undefined);
    }
    return Object.fromEntries(value instanceof Map ? value : []);
  }

  lineOf(path: readonly PropertyKey[]): number | undefined {
    let node: unknown = this.doc.contents;
    let line: number | undefined;
    for (const step of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
        if (!pair) break;
        line = this.nodeLine(pair.key) ?? line;
        node = pair.value;
      } else if (isSeq(node) && typeof step === "number" && node.items[step] !== undefined) {
        node = node.items[step];
        line = this.nodeLine(node) ?? line;
      } else {
        break;
      }
    }
    return line;
  }
}

/**
 * Reads a source file's front matter: YAML between a first line `---` and the next, with the
 * failsafe schema (every value stays text: "yes", "1.0" and "null" mean what they say), checked
 * against `schema` (unknown keys refused, so that a typo does not go unnoticed). Every problem is
 * a SourceFileError with the file, the line and what is wrong.
 */
export function readFrontMatter<S extends z.ZodObject>(text: string, file: string, schema: S): FrontMatter<z.output<S>> {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  if (!FENCE.test(lines[0] ?? "")) throw new SourceFileError(file, "Missing front matter: the file must start with a line '---'.", 1);
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close === -1) throw new SourceFileError(file, "The front matter is never closed: add a line '---' after it.", 1);

  const reader = new FrontMatterReader(file, lines.slice(1, close).join("\n"));
  reader.check();
  const parsed = schema.strict().safeParse(reader.values());
  if (!parsed.success) {
    const unknownKey = parsed.error.issues.find((issue) => issue.code === "unrecognized_keys");
    if (unknownKey) {
      const key = unknownKey.keys[0];
      reader.fail(`Unknown front-matter key "${key}"; expected ${Object.keys(schema.shape).join(", ")}.`, reader.lineOf([key]));
    }
    const [issue] = parsed.error.issues;
    reader.fail(issue.message, reader.lineOf(issue.path));
  }
  return {
    data: parsed.data as z.output<S>,
    body: lines
      .slice(close + 1)
      .join("\n")
      .trim(),
    lineOf: (path) => reader.lineOf(path),
  };
}

/** Source files are meant to be read by people and models: anything larger is a mistake. */
const SOURCE_FILE_MAX_BYTES = 256 * 1024;

export async function readSourceFile(file: string): Promise<string> {
  const { size } = await stat(file);
  if (size > SOURCE_FILE_MAX_BYTES) {
    throw new SourceFileError(file, `The file is ${size} bytes; the limit is ${SOURCE_FILE_MAX_BYTES}.`);
  }
  return readFile(file, "utf8");
}

/** Any failure while loading one file, as a load error for the report. */
export function toLoadError(error: unknown, file: string): SourceLoadError {
  if (error instanceof SourceFileError) return error.toLoadError();
  return { file, message: error instanceof Error ? error.message : String(error) };
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}
