/** A Markdown table; numbers are printed as given, so callers choose their precision. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): string {
  const line = (cells: readonly (string | number)[]): string => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export function fixed(value: number, digits = 3): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}
