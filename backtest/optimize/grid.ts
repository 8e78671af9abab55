/**
 * Parameter grids for `tradeloop optimize --grid fast=5..30:5,slow=20..100:10`: each entry is
 * `name=from..to:step` (inclusive range), `name=a|b|c` (a list) or `name=value` (fixed). Every
 * combination is one backtest. Errors name the flag, the entry and the fix.
 */
import { InputError } from '../../src/core/index.js';

export type GridValue = number | string | boolean;

export interface Grid {
  /** The varied and fixed parameter names, in the order given. */
  readonly names: readonly string[];
  /** Every combination, first name varying slowest. */
  readonly combinations: ReadonlyArray<Readonly<Record<string, GridValue>>>;
}

/** Largest number of combinations one optimize run accepts. */
export const MAX_COMBINATIONS = 100_000;

const RANGE = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/;

export function parseGrid(text: string, flag = '--grid'): Grid {
  if (text.trim() === '') throw new InputError(flag, 'empty: give name=from..to:step entries such as fast=5..30:5,slow=20..100:10');
  const axes: Array<[string, GridValue[]]> = [];
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InputError(flag, `entry ${JSON.stringify(part)} is not name=values (e.g. fast=5..30:5)`);
    const name = part.slice(0, eq).trim();
    if (axes.some(([n]) => n === name)) throw new InputError(flag, `parameter ${name} appears twice; give each once`);
    axes.push([name, values(name, part.slice(eq + 1).trim(), flag)]);
  }
  const total = axes.reduce((n, [, v]) => n * v.length, 1);
  if (total > MAX_COMBINATIONS) throw new InputError(flag, `${total} combinations is more than ${MAX_COMBINATIONS}; use larger steps`);
  let combos: Array<Record<string, GridValue>> = [{}];
  for (const [name, vals] of axes) combos = combos.flatMap((c) => vals.map((v) => ({ ...c, [name]: v })));
  return { names: axes.map(([n]) => n), combinations: combos };
}

function values(name: string, spec: string, flag: string): GridValue[] {
  const range = RANGE.exec(spec);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    const step = range[3] === undefined ? 1 : Number(range[3]);
    if (!(step > 0)) throw new InputError(flag, `${name}: the step must be greater than 0, as in ${name}=${from}..${to}:1`);
    if (to < from) throw new InputError(flag, `${name}: the range ${from}..${to} runs backwards; write ${to}..${from}`);
    const out: number[] = [];
    const decimals = Math.max(places(range[1]!), places(range[3] ?? '1'));
    for (let k = 0; from + k * step <= to + 1e-9; k++) out.push(Number((from + k * step).toFixed(decimals)));
    return out;
  }
  if (spec.includes('..'))
    throw new InputError(flag, `${name}: ${JSON.stringify(spec)} is not a range; write from..to:step such as 5..30:5`);
  const list = spec.split('|').map((v) => v.trim());
  if (list.some((v) => v === ''))
    throw new InputError(flag, `${name}: empty value in ${JSON.stringify(spec)}; write values such as 10|20|30`);
  return list.map(readValue);
}

function places(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

function readValue(raw: string): GridValue {
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}
