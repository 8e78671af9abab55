/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for tests: every line is
 * a `# HELP`, a `# TYPE` or a sample of a family whose TYPE came first, with a valid metric name,
 * label set and value. Returns the samples by their full series name (`name{labels}`).
 */
const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const VALUE = '(?:[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?Inf|NaN)';
const SAMPLE = new RegExp(`^(${NAME})(\\{(?:${LABEL}(?:,${LABEL})*)?,?\\})? (${VALUE})(?: -?\\d+)?$`);
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePrometheusText(text: string): Map<string, number> {
  const types = new Map<string, string>();
  const samples = new Map<string, number>();
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('the exposition must end with a newline');
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${line}`;
    if (line === '') return;
    if (line.startsWith('# HELP ')) {
      if (!new RegExp(`^# HELP ${NAME} `).test(line)) throw new Error(`bad HELP, ${where}`);
      return;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (!name || !new RegExp(`^${NAME}$`).test(name) || !type || !TYPES.has(type)) throw new Error(`bad TYPE, ${where}`);
      if (types.has(name)) throw new Error(`TYPE repeated, ${where}`);
      types.set(name, type);
      return;
    }
    if (line.startsWith('#')) return;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample, ${where}`);
    const name = m[1] as string;
    const family = [name, name.replace(/_(bucket|sum|count|total|created)$/, '')].find((n) => types.has(n));
    if (family === undefined) throw new Error(`sample before its TYPE, ${where}`);
    const series = `${name}${m[2] ?? ''}`;
    if (samples.has(series)) throw new Error(`series repeated, ${where}`);
    samples.set(series, Number(m[3]?.replace(/^\+?Inf$/, 'Infinity').replace(/^-Inf$/, '-Infinity')));
  });
  return samples;
}
