/**
 * The space `tradeloop optimize --search random|tpe` samples: one dimension per varied parameter,
 * read from the plugin's params schema (a number's bounds, whole or not, a log scale declared with
 * `.meta({ scale: 'log' })`; an enum's options; a boolean) and narrowed by `--grid`, whose entries
 * give the range (`fast=5..30`, `fast=5..30:5` on a step, `lr=0.001..1:log` on a log scale), a
 * list of choices (`mode=a|b`) or a fixed value. Without `--grid` every bounded number, enum and
 * boolean of the schema is searched. Errors name the flag and the fix.
 */
import type { z } from 'zod';
import { InputError, Rng } from '../../src/core/index.js';
import { parseGrid, type GridValue } from '../optimize/grid.js';

export type Dimension =
  | {
      readonly name: string;
      readonly kind: 'number';
      readonly low: number;
      readonly high: number;
      readonly int: boolean;
      readonly log: boolean;
      readonly step?: number;
    }
  | { readonly name: string; readonly kind: 'choice'; readonly choices: readonly GridValue[] };

export interface SearchSpace {
  readonly dimensions: readonly Dimension[];
  /** Parameters `--grid` fixed to one value: part of every trial. */
  readonly fixed: Readonly<Record<string, GridValue>>;
}

export interface SchemaNumber {
  readonly low?: number;
  readonly high?: number;
  readonly int: boolean;
  readonly log: boolean;
}

/** A param's schema as the search reads it: a number's bounds and scale, a list of choices, or neither. */
export type Described = { kind: 'number'; n: SchemaNumber } | { kind: 'choice'; choices: GridValue[] } | { kind: 'other' };

const RANGE = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)(?::(log|\d+(?:\.\d+)?))?$/;
/** Bounds at or beyond this size are the schema's "no bound" (zod reports safe-integer limits for .int()). */
const NO_BOUND = 1e15;

/** The space of `--grid` (when given) over the schema `params`. */
export function searchSpace(params: z.ZodObject, gridText: string | undefined, flag = '--grid'): SearchSpace {
  const shape = params.shape as Record<string, z.ZodType>;
  const dimensions: Dimension[] = [];
  const fixed: Record<string, GridValue> = {};
  if (gridText === undefined) {
    for (const [name, schema] of Object.entries(shape)) {
      const d = describe(schema);
      if (d.kind === 'choice' && name !== 'market') dimensions.push({ name, kind: 'choice', choices: d.choices });
      if (d.kind === 'number' && d.n.low !== undefined && d.n.high !== undefined)
        dimensions.push({ name, kind: 'number', low: d.n.low, high: d.n.high, int: d.n.int, log: d.n.log });
    }
    if (dimensions.length === 0)
      throw new InputError(
        flag,
        `the params schema has no bounded number, enum or boolean to search; give ranges such as --grid ${Object.keys(shape)[0] ?? 'fast'}=5..30`,
      );
    return { dimensions, fixed };
  }
  if (gridText.trim() === '') throw new InputError(flag, 'empty: give name=from..to entries such as fast=5..30,slow=20..100');
  for (const part of gridText.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    const spec = part.slice(eq + 1).trim();
    const range = eq > 0 ? RANGE.exec(spec) : null;
    if (!range) {
      const values = parseGrid(part, flag).combinations.map((c) => c[name]!); // lists, fixed values and the errors of a bad entry
      if (values.length === 1) fixed[name] = values[0]!;
      else dimensions.push({ name, kind: 'choice', choices: values });
      continue;
    }
    if (dimensions.some((d) => d.name === name)) throw new InputError(flag, `parameter ${name} appears twice; give each once`);
    const low = Number(range[1]);
    const high = Number(range[2]);
    if (high <= low)
      throw new InputError(flag, `${name}: the range ${range[1]}..${range[2]} is empty or runs backwards; write a smaller number first`);
    const d = shape[name] ? describe(shape[name]) : undefined;
    const n = d?.kind === 'number' ? d.n : { int: false, log: false };
    const log = range[3] === 'log' || n.log;
    if (log && low <= 0) throw new InputError(flag, `${name}: a log scale needs a range above 0, got ${range[1]}..${range[2]}`);
    const step = range[3] !== undefined && range[3] !== 'log' ? Number(range[3]) : undefined;
    if (step !== undefined && !(step > 0))
      throw new InputError(flag, `${name}: the step must be greater than 0, as in ${name}=${low}..${high}:1`);
    const int = n.int || (step !== undefined && Number.isInteger(step) && Number.isInteger(low));
    dimensions.push({
      name,
      kind: 'number',
      low: Math.max(low, n.low ?? low),
      high: Math.min(high, n.high ?? high),
      int,
      log,
      ...(step !== undefined && { step }),
    });
  }
  return { dimensions, fixed };
}

/** What the search reads of one param's schema (`tradeloop verify` checks the same). */
export function describe(schema: z.ZodType): Described {
  let s = schema as unknown as ZodLike;
  let log = s.meta?.()?.scale === 'log';
  while (s.def.type === 'default' || s.def.type === 'optional' || s.def.type === 'nullable') {
    s = s.def.innerType!;
    log ||= s.meta?.()?.scale === 'log';
  }
  if (s.def.type === 'boolean') return { kind: 'choice', choices: [false, true] };
  if (s.def.type === 'enum' && s.options) return { kind: 'choice', choices: [...s.options] };
  if (s.def.type !== 'number') return { kind: 'other' };
  const int = s.isInt === true;
  let low = Number.isFinite(s.minValue) && Math.abs(s.minValue!) < NO_BOUND ? s.minValue! : undefined;
  let high = Number.isFinite(s.maxValue) && Math.abs(s.maxValue!) < NO_BOUND ? s.maxValue! : undefined;
  // an exclusive whole-number bound moves one step in; an exclusive fractional one is never drawn exactly
  for (const c of s.def.checks ?? []) {
    const def = c._zod.def;
    if (def.inclusive !== false || !int) continue;
    if (def.check === 'greater_than' && low !== undefined && def.value === low) low += 1;
    if (def.check === 'less_than' && high !== undefined && def.value === high) high -= 1;
  }
  return { kind: 'number', n: { ...(low !== undefined && { low }), ...(high !== undefined && { high }), int, log } };
}

interface ZodLike {
  readonly def: {
    readonly type: string;
    readonly innerType?: ZodLike;
    readonly checks?: ReadonlyArray<{
      readonly _zod: { readonly def: { readonly check: string; readonly inclusive?: boolean; readonly value?: number } };
    }>;
  };
  readonly minValue?: number | null;
  readonly maxValue?: number | null;
  readonly isInt?: boolean;
  readonly options?: readonly GridValue[];
  meta?(): { readonly scale?: string } | undefined;
}

/** A seeded generator of uniform numbers in [0, 1) (the project's Rng): the same seed, the same trials. */
export function seededRandom(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

/** A value of `d` from its unit position u in [0, 1] (log scale and whole numbers applied). */
export function fromUnit(d: Extract<Dimension, { kind: 'number' }>, u: number): number {
  const x = d.log ? Math.exp(Math.log(d.low) + u * (Math.log(d.high) - Math.log(d.low))) : d.low + u * (d.high - d.low);
  return snap(d, x);
}

/** `x` clamped to the range and rounded to its step (whole numbers: step 1; other numbers: 6 significant figures). */
export function snap(d: Extract<Dimension, { kind: 'number' }>, x: number): number {
  const step = d.step ?? (d.int ? 1 : undefined);
  const clamped = Math.min(d.high, Math.max(d.low, x));
  if (step === undefined) return Number(clamped.toPrecision(6));
  const k = Math.round((clamped - d.low) / step);
  const v = d.low + Math.min(k, Math.floor((d.high - d.low) / step + 1e-9)) * step;
  return Number(v.toFixed(Math.max(places(step), places(d.low))));
}

function places(v: number): number {
  const text = String(v);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** One trial's parameters drawn uniformly (the random search). */
export function randomTrial(space: SearchSpace, rand: () => number): Record<string, GridValue> {
  const out: Record<string, GridValue> = { ...space.fixed };
  for (const d of space.dimensions)
    out[d.name] = d.kind === 'choice' ? d.choices[Math.floor(rand() * d.choices.length)]! : fromUnit(d, rand());
  return out;
}
