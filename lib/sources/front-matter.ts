/**
 * A strict parser for the YAML subset that SKILL.md and agent files use in their front matter:
 *
 *     ---
 *     name: release-notes                  plain scalar (a trailing " # comment" is dropped)
 *     title: "Quoted: \"escapes\" work"    double- or single-quoted scalar
 *     description: >                       folded (>) or literal (|) block, chomping - or +
 *       Several lines.
 *     baseTools: [read, grep]              flow list of scalars
 *     permissions:                         block list of scalars or `key: value` pairs
 *       - "*": allow
 *       - bash: deny
 *     metadata:                            block map of scalars
 *       owner: platform
 *     ---
 *
 * Every value stays a string: "yes", "1" and "null" mean what they say. Anything outside the
 * subset (deeper nesting, anchors, tags, flow maps, multi-line plain scalars, tabs) is an error
 * with its line number rather than a silent misreading.
 */

export interface FrontMatterScalar {
  kind: "scalar";
  value: string;
  line: number;
}

export interface FrontMatterPair {
  kind: "pair";
  key: string;
  value: string;
  line: number;
}

export interface FrontMatterList {
  kind: "list";
  items: (FrontMatterScalar | FrontMatterPair)[];
  line: number;
}

export interface FrontMatterMap {
  kind: "map";
  /** In file order, which matters for permissions (the last matching rule wins). */
  entries: FrontMatterPair[];
  line: number;
}

export type FrontMatterValue = FrontMatterScalar | FrontMatterList | FrontMatterMap;

export interface ParsedFrontMatter {
  fields: Map<string, FrontMatterValue>;
  body: string;
}

export class FrontMatterError extends Error {
  constructor(
    message: string,
    /** 1-based line in the whole file; undefined when the problem is the file as a whole. */
    readonly line?: number,
  ) {
    super(message);
    this.name = "FrontMatterError";
  }
}

const FENCE = /^---\s*$/;
const TOP_LEVEL_KEY = /^([A-Za-z_][A-Za-z0-9_.-]*):(?=\s|$)(.*)$/;
const BLOCK_HEADER = /^([|>])([+-]?)\s*(?:#.*)?$/;

const indentation = (line: string) => line.length - line.trimStart().length;
const isBlank = (line: string) => line.trim().length === 0;
const isComment = (line: string) => line.trimStart().startsWith("#");

export function parseFrontMatter(text: string): ParsedFrontMatter {
  const lines = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
  if (!FENCE.test(lines[0] ?? "")) {
    throw new FrontMatterError("Missing front matter: the file must start with a line '---'.", 1);
  }
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close === -1) throw new FrontMatterError("The front matter is never closed: add a line '---' after it.", 1);

  const fields = new Map<string, FrontMatterValue>();
  let index = 1;
  while (index < close) {
    const line = lines[index];
    const lineNumber = index + 1;
    if (isBlank(line) || isComment(line)) {
      index++;
      continue;
    }
    if (/^\s/.test(line)) {
      throw new FrontMatterError(
        "Unexpected indentation. A value continued on the next lines needs a block scalar ('>' or '|').",
        lineNumber,
      );
    }
    const match = TOP_LEVEL_KEY.exec(line);
    if (!match) throw new FrontMatterError(`Expected "key: value", found "${line.trim()}".`, lineNumber);
    const [, key, rest] = match;
    if (fields.has(key)) throw new FrontMatterError(`"${key}" is given twice.`, lineNumber);

    const nestedEnd = endOfIndentedBlock(lines, index + 1, close);
    const nested = lines.slice(index + 1, nestedEnd);
    const inline = stripComment(rest.trim());
    const header = BLOCK_HEADER.exec(rest.trim());
    if (header) {
      fields.set(key, { kind: "scalar", value: blockScalar(nested, header[1] as "|" | ">", header[2], lineNumber + 1), line: lineNumber });
    } else if (inline.length > 0) {
      if (nested.some((nestedLine) => !isBlank(nestedLine) && !isComment(nestedLine))) {
        throw new FrontMatterError(
          `"${key}" has a value on its line and indented lines after it; use a block scalar ('>' or '|') for a multi-line value.`,
          lineNumber,
        );
      }
      fields.set(key, inlineValue(inline, lineNumber));
    } else {
      fields.set(key, nestedCollection(nested, lineNumber));
    }
    index = nestedEnd;
  }
  return { fields, body: lines.slice(close + 1).join("\n").trim() };
}

/** The index of the first line after `start` that is neither blank nor indented. */
function endOfIndentedBlock(lines: string[], start: number, end: number): number {
  let index = start;
  while (index < end && (isBlank(lines[index]) || /^\s/.test(lines[index]))) index++;
  return index;
}

function stripComment(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) return value;
  if (value.startsWith("#")) return "";
  const comment = value.search(/\s#/);
  return comment === -1 ? value : value.slice(0, comment).trimEnd();
}

function inlineValue(text: string, line: number): FrontMatterValue {
  if (text.startsWith("[")) return { kind: "list", items: flowList(text, line), line };
  return { kind: "scalar", value: scalar(text, line), line };
}

/** A quoted or plain scalar that makes up the whole of `text`. */
function scalar(text: string, line: number): string {
  if (text.startsWith('"') || text.startsWith("'")) {
    const { value, end } = quoted(text, 0, line);
    const trailing = text.slice(end).trim();
    if (trailing.length > 0 && !trailing.startsWith("#")) {
      throw new FrontMatterError(`Unexpected text after the closing quote: "${trailing}".`, line);
    }
    return value;
  }
  if (/^[&*!]/.test(text)) throw new FrontMatterError("Anchors, aliases and tags (&, *, !) are not supported.", line);
  if (/^[{|>@`]/.test(text)) {
    throw new FrontMatterError(`A value cannot start with "${text[0]}" unquoted; put it in quotes.`, line);
  }
  if (/:(\s|$)/.test(text)) throw new FrontMatterError(`A value containing ": " must be quoted: ${text}`, line);
  return text;
}

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0" };

/** Reads the quoted string starting at `start`; `end` is the index just after its closing quote. */
function quoted(text: string, start: number, line: number): { value: string; end: number } {
  const quote = text[start];
  let value = "";
  for (let index = start + 1; index < text.length; index++) {
    const char = text[index];
    if (quote === "'" && char === "'") {
      if (text[index + 1] === "'") {
        value += "'";
        index++;
        continue;
      }
      return { value, end: index + 1 };
    }
    if (quote === '"' && char === '"') return { value, end: index + 1 };
    if (quote === '"' && char === "\\") {
      const escaped = DOUBLE_QUOTE_ESCAPES[text[index + 1]];
      if (escaped === undefined) throw new FrontMatterError(`Unsupported escape "\\${text[index + 1] ?? ""}" in a quoted string.`, line);
      value += escaped;
      index++;
      continue;
    }
    value += char;
  }
  throw new FrontMatterError(`A quoted string is not closed (missing ${quote}).`, line);
}

function flowList(text: string, line: number): FrontMatterScalar[] {
  const trimmed = stripFlowComment(text);
  if (!trimmed.endsWith("]")) throw new FrontMatterError("A list written as [a, b] must end with ']' on the same line.", line);
  const inner = trimmed.slice(1, -1);
  const items: FrontMatterScalar[] = [];
  let index = 0;
  while (index < inner.length) {
    while (inner[index] === " ") index++;
    if (index >= inner.length) break;
    let value: string;
    if (inner[index] === '"' || inner[index] === "'") {
      const read = quoted(inner, index, line);
      value = read.value;
      index = read.end;
      while (inner[index] === " ") index++;
    } else {
      const comma = inner.indexOf(",", index);
      const raw = inner.slice(index, comma === -1 ? inner.length : comma).trim();
      if (/[[\]{}]/.test(raw)) throw new FrontMatterError("Nested lists and maps are not supported inside [ ].", line);
      value = scalar(raw, line);
      index = comma === -1 ? inner.length : comma;
    }
    if (value.length === 0) throw new FrontMatterError("Empty item in a list written as [a, b].", line);
    items.push({ kind: "scalar", value, line });
    if (index < inner.length && inner[index] !== ",") throw new FrontMatterError("Expected ',' between list items.", line);
    index++;
  }
  return items;
}

/** Drops a comment after the closing bracket without cutting quoted text that contains '#'. */
function stripFlowComment(text: string): string {
  const close = text.lastIndexOf("]");
  if (close === -1) return text.trim();
  const after = text.slice(close + 1).trim();
  return after.length === 0 || after.startsWith("#") ? text.slice(0, close + 1) : text.trim();
}

function blockScalar(lines: string[], style: "|" | ">", chomping: string, firstLine: number): string {
  const start = lines.findIndex((line) => !isBlank(line));
  if (start === -1) return "";
  const indent = indentation(lines[start]);
  const content = lines.slice(start).map((line, offset) => {
    if (isBlank(line)) return "";
    if (/^ *\t/.test(line)) throw new FrontMatterError("Tabs cannot be used for indentation.", firstLine + start + offset);
    if (indentation(line) < indent) {
      throw new FrontMatterError("A line of a block scalar is indented less than its first line.", firstLine + start + offset);
    }
    return line.slice(indent);
  });
  const text = style === "|" ? content.join("\n") : fold(content);
  const stripped = text.replace(/\n+$/, "");
  if (chomping === "-") return stripped;
  if (chomping === "+") return `${text}\n`;
  return `${stripped}\n`;
}

/** Lines of a paragraph join with a space; a blank line is a line break; more-indented lines keep theirs. */
function fold(content: string[]): string {
  let text = content[0];
  for (let index = 1; index < content.length; index++) {
    const line = content[index];
    const previous = content[index - 1];
    if (line === "") text += "\n";
    else if (previous === "") text += line;
    else if (line.startsWith(" ") || previous.startsWith(" ")) text += `\n${line}`;
    else text += ` ${line}`;
  }
  return text;
}

function nestedCollection(lines: string[], keyLine: number): FrontMatterValue {
  const entries = lines
    .map((text, offset) => ({ text, line: keyLine + 1 + offset }))
    .filter(({ text }) => !isBlank(text) && !isComment(text));
  if (entries.length === 0) return { kind: "scalar", value: "", line: keyLine };
  const indent = indentation(entries[0].text);
  for (const entry of entries) {
    if (/^ *\t/.test(entry.text)) throw new FrontMatterError("Tabs cannot be used for indentation.", entry.line);
    if (indentation(entry.text) !== indent) {
      throw new FrontMatterError("Only one level of nesting is supported: every item must have the same indentation.", entry.line);
    }
  }
  const isListItem = (text: string) => /^-(\s|$)/.test(text.trimStart());
  if (isListItem(entries[0].text)) {
    const items = entries.map(({ text, line }) => {
      if (!isListItem(text)) throw new FrontMatterError("A list mixes '- item' lines with other lines.", line);
      const item = stripComment(text.trimStart().slice(1).trim());
      if (item.length === 0) throw new FrontMatterError("Empty list item.", line);
      return listItem(item, line);
    });
    return { kind: "list", items, line: keyLine };
  }
  const seen = new Set<string>();
  const pairs = entries.map(({ text, line }) => {
    const pair = keyValue(stripComment(text.trim()), line);
    if (!pair) throw new FrontMatterError(`Expected "key: value" inside a map, found "${text.trim()}".`, line);
    if (seen.has(pair.key)) throw new FrontMatterError(`"${pair.key}" is given twice.`, line);
    seen.add(pair.key);
    return pair;
  });
  return { kind: "map", entries: pairs, line: keyLine };
}

function listItem(text: string, line: number): FrontMatterScalar | FrontMatterPair {
  if (text.startsWith("[")) throw new FrontMatterError("Nested lists are not supported.", line);
  return keyValue(text, line) ?? { kind: "scalar", value: scalar(text, line), line };
}

/** `key: value` with a plain or quoted key (plain keys may contain ':' not followed by a space, e.g. task:*). */
function keyValue(text: string, line: number): FrontMatterPair | undefined {
  let key: string;
  let rest: string;
  if (text.startsWith('"') || text.startsWith("'")) {
    const read = quoted(text, 0, line);
    const after = text.slice(read.end);
    if (!/^\s*:(\s|$)/.test(after)) return undefined;
    key = read.value;
    rest = after.replace(/^\s*:/, "");
  } else {
    const separator = text.search(/:(\s|$)/);
    if (separator === -1) return undefined;
    key = text.slice(0, separator).trim();
    rest = text.slice(separator + 1);
  }
  const value = rest.trim();
  if (value.length === 0) throw new FrontMatterError(`"${key}" has no value; nested maps are not supported.`, line);
  if (value.startsWith("[") || BLOCK_HEADER.test(value)) {
    throw new FrontMatterError(`"${key}" must have a single value on the same line.`, line);
  }
  return { kind: "pair", key, value: scalar(value, line), line };
}
