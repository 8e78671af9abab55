/**
 * The layers of eslint.config.js, each shown refusing a forbidden import: ESLint lints a line of code
 * as if it stood in a file of the tree (the file need not exist), with the project's own config.
 */
import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The messages of the layer rule (or of `ruleId`, the boundaries' rule) for `code` placed at `file`. */
async function layerMessages(file: string, code: string, ruleId = '@typescript-eslint/no-restricted-imports'): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport { x };\n`, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

const REFUSED: ReadonlyArray<readonly [rule: string, file: string, code: string, says: RegExp]> = [
  [
    'core is the ground',
    'src/core/probe.ts',
    "import { x } from '../platform/instruments.js';",
    /src\/core\/ imports only its own layer and those below/,
  ],
  ['platform rests on core alone', 'src/platform/probe.ts', "import { x } from '../clock/index.js';", /on src\/core alone/],
  ['state stays below the engine', 'src/state/probe.ts', "import { x } from '../engine/index.js';", /src\/state\/ imports only/],
  [
    'risk never imports the simulator',
    'src/risk/checks/probe.ts',
    "import { x } from '../../sim/market/catalog.js';",
    /never imports the simulator or the fill models/,
  ],
  [
    'risk never imports the fill models',
    'src/risk/probe.ts',
    "import { x } from '../fills/index.js';",
    /never imports the simulator or the fill models/,
  ],
  ['bars stay below the engine', 'src/bars/probe.ts', "import { x } from '../engine/index.js';", /src\/bars\/ imports only/],
  ['exec stays below the engine', 'src/exec/probe.ts', "import { x } from '../engine/kernel.js';", /src\/exec\/ imports only/],
  [
    'the engine stays below the live application',
    'src/engine/probe.ts',
    "import { x } from '../live/index.js';",
    /src\/engine\/ imports only/,
  ],
  ['the engine never starts a sandbox', 'src/engine/probe.ts', "import { x } from '../sandbox/index.js';", /never starts a sandbox/],
  ['live stays below backtest/', 'src/live/probe.ts', "import { x } from '../../backtest/run.js';", /src\/live\/ imports only/],
  [
    'the simulator never imports the fill models',
    'src/sim/exchange/probe.ts',
    "import { x } from '../../fills/rules/transfers.js';",
    /src\/sim\/ imports only/,
  ],
  ['fills stay below backtest/', 'src/fills/point/probe.ts', "import { x } from '../../../backtest/run.js';", /src\/fills\/ imports only/],
  ['backtest/ stays below the CLI', 'backtest/probe.ts', "import { x } from '../src/cli/main.js';", /backtest\/ imports only/],
  [
    'ops never imports backtest/',
    'src/ops/probe.ts',
    "import { x } from '../../backtest/run.js';",
    /Only the CLI, the queue's trial runner and the test kit/,
  ],
  [
    'the queue takes only types from backtest/ outside its trial runner',
    'src/queue/probe.ts',
    "import { x } from '../../backtest/optimize/job.js';",
    /the rest of the queue takes its types only/,
  ],
  ['the API never imports the queue', 'src/api/http/probe.ts', "import { x } from '../../queue/connect.js';", /never imports the queue/],
];

/** The fill models' own boundaries (the simulator's rule, no-restricted-imports): what they share goes through src/fills/rules. */
const FILLS_REFUSED: ReadonlyArray<readonly [rule: string, file: string, code: string, says: RegExp]> = [
  [
    'point replay never imports the book fill model',
    'src/fills/point/probe.ts',
    "import { x } from '../book/matching.js';",
    /never import each other/,
  ],
  [
    'the book fill model never imports point replay',
    'src/fills/book/probe.ts',
    "import { x } from '../point/transfers.js';",
    /never import each other/,
  ],
  ['the shared rules import no fill model', 'src/fills/rules/probe.ts', "import { x } from '../point/market.js';", /imports none of them/],
  [
    'the simulator imports neither fills nor anything above src/platform',
    'src/sim/exchange/probe.ts',
    "import { x } from '../../fills/point/stops.js';",
    /src\/core, src\/clock and src\/platform alone/,
  ],
  [
    'a fill model still never imports src/sim/index.ts',
    'src/fills/point/probe.ts',
    "import { x } from '../../sim/index.js';",
    /the sandbox's face/,
  ],
];

const FILLS_ALLOWED: ReadonlyArray<readonly [file: string, code: string]> = [
  ['src/fills/point/probe.ts', "import { x } from '../rules/transfers.js';"],
  ['src/fills/book/probe.ts', "import { x } from '../rules/transfers.js';"],
  ['src/fills/paper/probe.ts', "import { x } from '../book/venue.js';"],
  ['src/sim/exchange/probe.ts', "import { x } from '../../platform/order-life.js';"],
];

const ALLOWED: ReadonlyArray<readonly [file: string, code: string]> = [
  ['src/platform/probe.ts', "import { x } from '../core/index.js';"],
  ['src/risk/probe.ts', "import { x } from '../platform/order-rules.js';"],
  ['src/engine/probe.ts', "import { x } from '../exec/index.js';"],
  ['src/bars/probe.ts', "import { x } from '../indicators/types.js';"],
  ['src/strategy/probe.ts', "import { x } from '../bars/index.js';"],
  ['src/live/probe.ts', "import { x } from '../sandbox/index.js';"],
  ['backtest/probe.ts', "import { x } from '../src/live/index.js';"],
  ['src/cli/commands/probe.ts', "import { x } from '../../../backtest/run.js';"],
  ['src/queue/trial-worker.ts', "import { x } from '../../backtest/optimize/job.js';"],
  ['src/queue/probe.ts', "import type { x } from '../../backtest/optimize/job.js';"],
  ['src/testkit.ts', "import { x } from '../backtest/testkit.js';"],
];

describe('the layers (eslint.config.js)', () => {
  it.each(REFUSED)(
    '%s: refuses %s importing upward',
    async (_rule, file, code, says) => {
      // a rule of its own may name an import the layers' order refuses too: both are said
      expect(await layerMessages(file, code)).toEqual(expect.arrayContaining([expect.stringMatching(says)]));
    },
    60_000,
  );

  it.each(ALLOWED)(
    'lets %s import downward',
    async (file, code) => {
      expect(await layerMessages(file, code)).toEqual([]);
    },
    60_000,
  );

  it.each(FILLS_REFUSED)(
    '%s: refuses %s importing %s',
    async (_rule, file, code, says) => {
      expect(await layerMessages(file, code, 'no-restricted-imports')).toEqual(expect.arrayContaining([expect.stringMatching(says)]));
    },
    60_000,
  );

  it.each(FILLS_ALLOWED)(
    'lets %s import the shared rules',
    async (file, code) => {
      expect(await layerMessages(file, code, 'no-restricted-imports')).toEqual([]);
    },
    60_000,
  );

  it('reaches every file: none lies deeper than the rules count (three folders below src/X or backtest/)', () => {
    // the depth a file's specifiers climb to reach src/ (or the root, from backtest/)
    const depths = (top: string, under: number) =>
      readdirSync(join(ROOT, top), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => ({ file: `${top}/${f}`, depth: f.split(sep).length - under }));
    const deep = [...depths('src', 1), ...depths('backtest', 0)].filter((f) => f.depth > 4).map((f) => f.file);
    expect(deep).toEqual([]);
  });

  it('holds over the tree as it stands (no layer import in src/ or backtest/)', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts', 'backtest/**/*.ts']);
    const broken = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(broken).toEqual([]);
  }, 300_000);
});
