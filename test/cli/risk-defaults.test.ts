/**
 * One source of defaults: with no config (no --config, no ./config/default.yaml), `run`, `run --paper`,
 * `backtest` and `optimize` gate with the same risk limits, every key the schema's default; the shipped
 * files set no risk key to another value than the schema's (max_open_orders was 20 in them, 50 in the
 * schema).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveRiskLimits } from '../../backtest/limits.js';
import { builtinConfigFile, DEFAULT_RISK_LIMITS, loadConfig } from '../../src/config/index.js';
import { projectFiles } from '../../src/cli/project/templates.js';

const empty = mkdtempSync(join(tmpdir(), 'tradeloop-risk-defaults-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('risk limits with no config', () => {
  it('are the same in every mode, and each is the schema default', () => {
    // run and run --paper hand the located config's risk section to the kernel (src/live/live-bundle.ts)
    const run = loadConfig(undefined, empty).config.risk;
    const paper = loadConfig(undefined, empty).config.risk;
    // backtest (both forms) and optimize resolve theirs with resolveRiskLimits (src/cli/commands)
    const backtest = resolveRiskLimits(undefined, empty);
    const optimize = resolveRiskLimits(undefined, empty).limits;
    const modes = { run, paper, backtest: backtest.limits, optimize };
    for (const [mode, limits] of Object.entries(modes)) expect({ mode, limits }).toEqual({ mode, limits: DEFAULT_RISK_LIMITS });
    expect(Object.keys(backtest.origins).sort()).toEqual(Object.keys(DEFAULT_RISK_LIMITS).sort());
  });

  it('the shipped config and the init template set no risk key to another value than the schema default', () => {
    const shipped = (parse(readFileSync(builtinConfigFile()!, 'utf8')) as { risk?: Record<string, unknown> }).risk ?? {};
    for (const [key, value] of Object.entries(shipped))
      expect({ key, value }).toEqual({ key, value: (DEFAULT_RISK_LIMITS as Record<string, unknown>)[key] });
    const template = parse(
      projectFiles({ name: 'bot', dependency: 'file:..', tradeloopVersion: '0.0.0', strategy: 'my-strategy' })['config/default.yaml']!,
    ) as { risk: Record<string, unknown> };
    // a new project's file is the user's own: it may set limits, but not restate a default differently
    expect(template.risk.max_open_orders).toBeUndefined();
  });
});
