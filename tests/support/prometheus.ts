/** The Prometheus text format, read as Prometheus reads it: for the tests of GET /api/metrics. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition format 0.0.4: every line a comment (`# HELP`, `# TYPE`) or a sample; anything else fails. */
export function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE (\w+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (/^# HELP \w+ /.test(line)) continue;
    // Go's ParseFloat, which Prometheus reads values with, takes NaN and Inf in any case (prom-client writes "Nan").
    const sample = /^(\w+)(?:\{(.*)\})? (-?[\d.e+-]+|nan|[+-]inf)$/i.exec(line);
    if (!sample) throw new Error(`Not a Prometheus line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value.replace(/\\(.)/g, "$1");
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { samples, types };
}
