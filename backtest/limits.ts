/**
 * Where a backtest's risk limits come from: the configuration every command finds the same way
 * (`--config FILE`, else `./config/default.yaml`, else tradeloop's built-in defaults; see
 * src/config/locate.ts), so `run`, `run --paper`, `backtest` and `optimize` gate with the same limits.
 * Each limit is marked with where its value came from: the file (its `risk:` section sets the key) or
 * the schema's default; the report's manifest says so beside each rule.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { loadConfig, type LocatedConfig } from '../src/config/locate.js';
import type { RiskLimits } from '../src/risk/limits.js';

/** Where one limit's value came from: the config file's `risk:` section, or the schema's default. */
export type LimitOrigin = 'file' | 'default';

export interface ResolvedLimits {
  readonly limits: RiskLimits;
  /** By risk key (`max_order_notional`, ...): where its value came from. */
  readonly origins: Readonly<Record<string, LimitOrigin>>;
  /** The config file read, or undefined when none (the schema's defaults alone). */
  readonly file: string | undefined;
  readonly located: LocatedConfig;
}

/** The limits of the located configuration, each with its origin (see the module comment). */
export function resolveRiskLimits(flag: string | undefined, cwd: string = process.cwd()): ResolvedLimits {
  const located = loadConfig(flag, cwd);
  const file = located.source.file === undefined ? undefined : resolve(cwd, located.source.file);
  const set = file === undefined ? new Set<string>() : riskKeysIn(file);
  const limits = located.config.risk;
  const origins = Object.fromEntries(Object.keys(limits).map((k) => [k, set.has(k) ? 'file' : 'default'] as const));
  return { limits, origins, file: located.source.file, located };
}

/** The keys a config file's `risk:` section sets (the file was validated already). */
function riskKeysIn(file: string): Set<string> {
  const raw = parse(readFileSync(file, 'utf8')) as { risk?: unknown } | null;
  const risk = raw?.risk;
  return new Set(risk !== null && typeof risk === 'object' ? Object.keys(risk) : []);
}
