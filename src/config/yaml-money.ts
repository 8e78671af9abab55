import { isMap, isScalar, isSeq, type Document, type Node, type Scalar } from 'yaml';
import type { ConfigProblem } from './problem.js';

/**
 * Money keys of the config, as dotted paths (`*` is any key of a section). Their values are decimal
 * strings; written as a plain YAML number (`max_order_notional: 25000`) they are judged from the
 * text of the file, never from the float YAML would make of them.
 */
export const MONEY_PATHS: readonly string[] = ['risk.max_order_notional', 'risk.min_order_notional', 'risk.daily_loss_limit', 'risk.max_position.*', 'local.funding.*', 'paper.funding.*', 'strategies.*.allocation', 'strategies.*.holdings.*', 'strategies.*.holdings.*.amount', 'strategies.*.holdings.*.price'];

/** Digits a plain YAML number may carry and still be read exactly (a double holds 15 for sure). */
export const MAX_PLAIN_DIGITS = 15;

const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Turns money written as a plain YAML number into the decimal string the user wrote, when the text
 * is a plain decimal of at most 15 significant digits; an exponent (`1e6`), more digits, hex, octal
 * or .inf is a problem naming the field and the fix. Changes `doc` in place; returns the problems.
 */
export function moneyFromSourceText(doc: Document, text: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  walk(doc.contents, [], (path, node) => {
    if (typeof node.value !== 'number' || !MONEY_PATHS.some((p) => matches(p, path)) || node.range === undefined || node.range === null) return;
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

const WRITTEN = new WeakMap<object, Readonly<Record<string, string>>>();

/** Keeps how the numbers of a params object were written (a config block, or `--params`). */
export function noteWrittenNumbers(params: object, written: Readonly<Record<string, string>>): void {
  if (Object.keys(written).length > 0) WRITTEN.set(params, written);
}

/** How the numbers of a params object were written, when known. */
export function writtenNumbersOf(params: object): Readonly<Record<string, string>> | undefined {
  return WRITTEN.get(params);
}

/**
 * A number written where a decimal is taken: the decimal as written ("0.10" stays "0.10"), or the
 * problem in our words when it is not a plain decimal of at most 15 significant digits.
 */
export function decimalAsWritten(written: string): { readonly value: string } | { readonly problem: string } {
  const problem = judge(written);
  return problem === undefined ? { value: written.replace(/^\+/, '') } : { problem };
}

function judge(written: string): string | undefined {
  if (!PLAIN_DECIMAL.test(written)) {
    const kind = /e/i.test(written) && /\d/.test(written) ? 'a number with an exponent' : 'not a plain decimal';
    return `${written} is ${kind}: write the amount as a plain decimal in quotes, e.g. "25000"`;
  }
  const digits = significantDigits(written);
  if (digits > MAX_PLAIN_DIGITS) {
    return `${written} has ${digits} significant digits, more than a plain YAML number keeps exactly (${MAX_PLAIN_DIGITS}): put the amount in quotes, e.g. "${written.replace(/^\+/, '')}"`;
  }
  return undefined;
}

/** "25000" → 5, "0.00012" → 2, "100.50" → 5 (written trailing zeros count: they are what was written). */
export function significantDigits(written: string): number {
  const digits = written.replace(/[^0-9]/g, '').replace(/^0+/, '');
  return Math.max(digits.length, 1);
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
