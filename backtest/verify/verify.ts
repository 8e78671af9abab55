/**
 * `tradeloop verify`: checks a strategy plugin before anyone trusts its backtests. The static checks
 * (schema.ts) read its definition; the replay checks (checks.ts) run it through `runBacktest`, the
 * kernel and point replay of `tradeloop backtest`, and compare the decisions it makes: determinism
 * first (when two runs differ, comparing runs says nothing else), then look-ahead and warm-up.
 */
import type { MarketSymbol } from '../../src/core/index.js';
import { barsOf, marketsOf, type StrategyDefinition } from '../../src/strategy/define.js';
import type { RiskLimits } from '../../src/risk/limits.js';
import { warmUpOf } from '../warm-up-note.js';
import { checkDeterminism, checkLookAhead, checkWarmUp, type CheckResult, type VerifySource } from './checks.js';
import type { FirstDifference, VerifyRunConfig } from './decisions.js';
import { checkMarkets, checkParams } from './schema.js';
import { barUnit, longestNeed, pointUnit, spacingOf } from './warm-up-unit.js';

export interface VerifyOptions {
  readonly definition: StrategyDefinition;
  /** Resolved params (see `resolveParams`). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly source: VerifySource;
  readonly initial?: Readonly<Record<string, string>>;
  readonly feeBps?: number;
  readonly slippageBps?: number;
  readonly limits?: RiskLimits;
}

export interface VerifyReport {
  readonly strategy: string;
  readonly market: string;
  readonly points: number;
  readonly checks: readonly CheckResult[];
  /** No check failed (a skipped one does not fail). */
  readonly passed: boolean;
}

/** Runs every check; throws InputError on params or data a backtest would refuse. */
export async function verifyStrategy(o: VerifyOptions): Promise<VerifyReport> {
  const { definition, params, source } = o;
  const markets = checkMarkets(definition, params);
  const checks: CheckResult[] = [checkParams(definition), markets];
  const market = (marketsOf(definition, params as never)[0] ?? '') as MarketSymbol;
  if (markets.verdict === 'fail') {
    checks.push(
      ...(['determinism', 'look-ahead', 'warm-up'] as const).map((check): CheckResult => ({
        check,
        verdict: 'skip',
        summary: 'not run: fix the declared markets first',
      })),
    );
  } else {
    const cfg: VerifyRunConfig = {
      definition,
      params,
      market,
      ...(o.initial && { initial: o.initial }),
      ...(o.feeBps !== undefined && { feeBps: o.feeBps }),
      ...(o.slippageBps !== undefined && { slippageBps: o.slippageBps }),
      ...(o.limits && { limits: o.limits }),
    };
    const det = await checkDeterminism(cfg, source);
    checks.push(det.result);
    if (det.result.verdict === 'fail') {
      checks.push(
        ...(['look-ahead', 'warm-up'] as const).map((check): CheckResult => ({
          check,
          verdict: 'skip',
          summary: 'not run: the decisions differ from run to run, so comparing runs shows nothing; fix determinism first',
        })),
      );
    } else {
      checks.push(await checkLookAhead(cfg, source, det.decisions));
      const longest = longestNeed(barsOf(definition, params as never));
      const unit = longest ? barUnit(longest, spacingOf(source.open())) : pointUnit(warmUpOf(params, definition));
      checks.push(await checkWarmUp(cfg, source, market, unit));
    }
  }
  return { strategy: definition.name, market, points: source.length, checks, passed: checks.every((c) => c.verdict !== 'fail') };
}

/** The report for people: a line per check with its verdict, then the first differing decision and the problems. */
export function verifyLines(r: VerifyReport): string[] {
  const out = [`verify ${r.strategy} on ${r.market} (${r.points} points)`];
  for (const c of r.checks) {
    out.push(`${c.verdict.toUpperCase().padEnd(4)}  ${c.check.padEnd(11)}  ${c.summary}`);
    for (const p of c.problems ?? []) out.push(`      - ${p}`);
    if (c.difference) out.push(...differenceLines(c.difference, c.runs ?? ['reference', 'compared']));
  }
  const failed = r.checks.filter((c) => c.verdict === 'fail').map((c) => c.check);
  out.push(failed.length === 0 ? 'verdict: every check passed' : `verdict: failed (${failed.join(', ')})`);
  return out;
}

function differenceLines(d: FirstDifference, runs: readonly [string, string]): string[] {
  const side = (label: string, x: FirstDifference['expected']): string =>
    `        ${label}: ${x ? `${new Date(x.at).toISOString()}  ${x.text}` : '(no decision)'}`;
  return [
    `      first differing decision: #${d.index} at ${new Date(d.at).toISOString()}`,
    side(runs[0], d.expected),
    side(runs[1], d.got),
  ];
}

/** The report as `--json` prints it (times as ISO text). */
export function verifyToJson(r: VerifyReport): Record<string, unknown> {
  return {
    strategy: r.strategy,
    market: r.market,
    points: r.points,
    passed: r.passed,
    checks: r.checks.map((c) => ({
      check: c.check,
      verdict: c.verdict,
      summary: c.summary,
      ...(c.problems && { problems: c.problems }),
      ...(c.warmUp && { warm_up: c.warmUp }),
      ...(c.difference && {
        first_difference: {
          index: c.difference.index,
          runs: c.runs,
          time: new Date(c.difference.at).toISOString(),
          expected: decisionJson(c.difference.expected),
          got: decisionJson(c.difference.got),
        },
      }),
    })),
  };
}

function decisionJson(d: FirstDifference['expected']): { time: string; decision: string } | null {
  return d === undefined ? null : { time: new Date(d.at).toISOString(), decision: d.text };
}
