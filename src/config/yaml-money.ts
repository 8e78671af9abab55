import { isMap, isScalar, isSeq, type Document, type Node, type Scalar } from 'yaml';
import type { ConfigProblem } from './problem.js';
import { judge } from './written-decimal.js';

export { decimalAsWritten, MAX_PLAIN_DIGITS, noteWrittenNumbers, significantDigits, writtenNumbersOf } from './written-decimal.js';

/**
 * Money keys of the config, as dotted paths (`*` is any key of a section). Their values are decimal
 * strings; written as a plain YAML number (`max_order_notional: 25000`) they are judged from the
 * text of the file, never from the float YAML would make of them.
 */
export const MONEY_PATHS: readonly string[] = [
  'risk.max_order_notional',
  'risk.min_order_notional',
  'risk.daily_loss_limit',
  'risk.max_position.*',
  'local.funding.*',
  'paper.funding.*',
  'strategies.*.allocation',
  'strategies.*.holdings.*',
  'strategies.*.holdings.*.amount',
  'strategies.*.holdings.*.price',
];

/**
 * Turns money written as a plain YAML number into the decimal string the user wrote, when the text
 * is a plain decimal of at most 15 significant digits; an exponent (`1e6`), more digits, hex, octal
 * or .inf is a problem naming the field and the fix. Changes `doc` in place; returns the problems.
 */
export function moneyFromSourceText(doc: Document, text: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  walk(doc.contents, [], (path, node) => {
    if (typeof node.value !== 'number' || !MONEY_PATHS.some((p) => matches(p, path)) || node.range === undefined || node.range === null)
      return;
    const written = text.slice(node.range[0], node.range[1]).trim();
    const field = path.join('.');
    const problem = judge(written);
    if (problem === undefined) node.value = written.replace(/^\+/, '');
    else problems.push({ path: field, message: problem });
  });
  return problems;
}

/**
 * The text of every plain number written in a strategy's params block, by entry index and key: a
 * plugin's schema, known only when the plugin loads, decides which of them are decimals, and those
 * are then read from this text under the same rule as the config's own money keys.
 */
export function paramNumbersWritten(doc: Document, text: string): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  walk(doc.contents, [], (path, node) => {
    if (typeof node.value !== 'number' || path.length !== 4 || path[0] !== 'strategies' || path[2] !== 'params' || !node.range) return;
    const i = Number(path[1]);
    out.set(i, { ...out.get(i), [path[3]!]: text.slice(node.range[0], node.range[1]).trim() });
  });
  return out;
}

function matches(pattern: string, path: readonly string[]): boolean {
  const parts = pattern.split('.');
  return parts.length === path.length && parts.every((p, i) => p === '*' || p === path[i]);
}

function walk(node: unknown, path: readonly string[], visit: (path: readonly string[], node: Scalar) => void): void {
  if (isScalar(node)) {
    visit(path, node);
  } else if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      walk(pair.value as Node | null, [...path, key], visit);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => walk(item, [...path, String(i)], visit));
  }
}
