// Lint rules: typescript-eslint's recommended set plus the house rules that a linter can check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The parts of src/sim (see src/sim/index.ts) and who may import them. Specifiers are matched as
// written: the parts sit one folder deep, so a part's imports of another part start with '../'.
const SIM_ASSEMBLY = 'sim|sim-options|sim-ticks|snapshot|index';
const boundary = (files, patterns, ignores = []) => ({ files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const noImport = (regex, message) => ({ regex, message });
const SIM_OUTSIDE = noImport(
  '^\\.\\./\\.\\./(?!core/|clock/|platform/)',
  'src/sim is built on src/core, src/clock and src/platform alone.',
);
const simPart = (part, others, why) =>
  boundary(
    [`src/sim/${part}/**/*.ts`],
    [
      noImport(`^\\.\\./(${others})/`, why),
      noImport(
        `^\\.\\./(${SIM_ASSEMBLY})\\.js$`,
        'A part of src/sim never imports the assembled platform (sim.ts, sim-options, sim-ticks, snapshot, index).',
      ),
      SIM_OUTSIDE,
    ],
    ['**/*.test.ts'],
  );
const SIM_FACE = {
  ...noImport(
    '(^|/)sim/index\\.js$',
    "src/sim/index.ts is the sandbox's face and loads the whole simulated platform: import the file you need.",
  ),
  allowTypeImports: true,
};
const FILLS_APART =
  "Point replay (src/fills/point) and the book fill model (src/fills/book) never import each other: what they share is in src/fills/rules, or src/platform where it is the platform's rule.";
const SIM_KERNEL = ['errors', 'ids', 'time', 'hash', 'owners', 'wire-fields'].map((f) => `src/sim/${f}.ts`);
const SIM_BOUNDARIES = [
  boundary(SIM_KERNEL, [
    noImport(
      '^\\./(prices|market|exchange|platform)/',
      'The kernel of src/sim (errors, ids, time, hash, owners, wire-fields) imports none of its parts.',
    ),
    noImport(`^\\./(${SIM_ASSEMBLY})\\.js$`, 'The kernel of src/sim never imports the assembled platform.'),
    noImport('^\\.\\./(?!core/|clock/|platform/)', 'src/sim is built on src/core, src/clock and src/platform alone.'),
  ]),
  boundary(
    ['src/sim/*.ts'],
    [noImport('^\\.\\./(?!core/|clock/|platform/)', 'src/sim is built on src/core, src/clock and src/platform alone.')],
    [...SIM_KERNEL, '**/*.test.ts'],
  ),
  boundary(
    ['src/sim/prices/**/*.ts'],
    [noImport('^\\.\\./(?!\\.\\./core/)', 'prices/ reads price files with src/core alone.')],
    ['**/*.test.ts'],
  ),
  simPart('market', 'exchange|platform', 'market/ (the synthetic world) is built on the kernel and prices/ alone.'),
  simPart('exchange', 'platform', 'exchange/ is built on the kernel and market/: it knows no platform area.'),
  boundary(
    ['src/sandbox/**/*.ts'],
    [
      noImport(
        '(^|/)sim/(market|exchange|platform)/',
        "The sandbox takes what src/sim's parts offer from src/sim/index.ts (or a top-level file).",
      ),
      noImport('(^|/)sim/prices/', "The sandbox serves the simulated platform: price files are the backtester's."),
    ],
  ),
  boundary(['src/**/*.ts'], [SIM_FACE], ['src/sim/**', 'src/sandbox/**']),
  // Each fill rule is written once: point replay and the book fill model share theirs through
  // src/fills/rules (and src/platform, with the simulator), never through each other's files. These
  // boundaries come after the one above, which they repeat (a later config replaces a rule's options).
  boundary(['src/fills/point/**/*.ts'], [SIM_FACE, noImport('^\\.\\./book/', FILLS_APART)], ['**/*.test.ts']),
  boundary(['src/fills/book/**/*.ts'], [SIM_FACE, noImport('^\\.\\./point/', FILLS_APART)], ['**/*.test.ts']),
  boundary(
    ['src/fills/rules/**/*.ts'],
    [SIM_FACE, noImport('^\\.\\./(point|book|paper)/', 'src/fills/rules holds what the fill models share: it imports none of them.')],
    ['**/*.test.ts'],
  ),
  // The built-in strategies are examples of the public API: they import what a user's plugin can.
  boundary(
    ['strategies/**/*.ts'],
    [
      noImport(
        '^(?!tradeloop$)',
        "A built-in strategy imports from tradeloop only (the public entry, src/index.ts), as a user's plugin does.",
      ),
    ],
    ['**/*.test.ts'],
  ),
  boundary(
    ['strategies/**/*.test.ts'],
    [
      noImport(
        '^(?!tradeloop$|tradeloop/testkit$|vitest$|\\./[a-z-]+\\.js$)',
        "A built-in strategy's test imports tradeloop, tradeloop/testkit, vitest and the plugin it tests only.",
      ),
    ],
  ),
  boundary(
    ['backtest/**/*.ts'],
    [
      noImport(
        '(^|/)src/sim/(?!prices/)',
        'A backtest runs on point replay and price files (src/fills/point, src/sim/prices), never on SimPlatform.',
      ),
    ],
  ),
];

// The layers of the project, lowest first (README, Design): a folder of src/ imports its own layer and
// those below it, never one above. backtest/ is the top-level folder beside src/. Checked by
// @typescript-eslint/no-restricted-imports, so the simulator's own boundaries above (no-restricted-imports)
// stay a rule of their own. Test files beside the code are not held to the layers.
const LAYERS = [
  ['core', 'clock', 'log'],
  ['platform', 'config', 'indicators'],
  ['state', 'strategy', 'bars', 'api', 'sim'],
  ['risk', 'venue', 'sandbox'],
  ['exec'],
  ['engine'],
  ['fills', 'live'],
  ['backtest'],
  ['cli', 'ops', 'queue'],
];
const layerOf = (folder) => LAYERS.findIndex((l) => l.includes(folder));
const above = (folder) => LAYERS.slice(layerOf(folder) + 1).flat();
/** Rules a layer's order does not say: each a folder, what it never imports, and why. */
const NEVER = {
  platform: [['(?!core/)[^.]', "src/platform holds the platform's facts as data and rules, on src/core alone."]],
  risk: [['(sim|fills)/', 'The risk gate reads platform facts from src/platform: it never imports the simulator or the fill models.']],
  api: [['queue/', 'The API client never imports the queue: shared Redis handling is in src/config/redis-url.ts.']],
  engine: [['sandbox/', "The trading core never starts a sandbox: that is the live application's (src/live)."]],
  ops: [['\\.\\./backtest/', "Only the CLI, the queue's trial runner and the test kit import backtest/."]],
};
const UP = (folder) =>
  `${folder === 'backtest' ? 'backtest/' : `src/${folder}/`} imports only its own layer and those below (${LAYERS.map((l) => l.join(', ')).join(' < ')}).`;
/** One config per folder and depth (a file of src/X or backtest/ and up to three folders below), so a pattern names exactly the folder a relative specifier reaches. */
function layerBoundary(folder, depth) {
  const up = `^(\\.\\./){${depth}}`;
  const inSrc = folder !== 'backtest';
  const names = (list) => list.filter((f) => f !== 'backtest').join('|');
  const patterns = [];
  const higher = above(folder);
  if (names(higher) !== '') patterns.push({ regex: `${up}${inSrc ? '' : 'src/'}(${names(higher)})/`, message: UP(folder) });
  if (inSrc && higher.includes('backtest')) patterns.push({ regex: `^(\\.\\./){${depth + 1}}backtest/`, message: UP(folder) });
  for (const rule of NEVER[folder] ?? []) if (rule) patterns.push({ regex: `${up}${rule[0]}`, message: rule[1] });
  const files = [`${inSrc ? `src/${folder}` : 'backtest'}/${'*/'.repeat(depth - 1)}*.ts`];
  return { files, ignores: ['**/*.test.ts'], rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } };
}
const QUEUE_BACKTEST =
  "Only the CLI, the queue's trial runner (src/queue/trial-worker.ts) and the test kit import backtest/; the rest of the queue takes its types only.";
const LAYER_BOUNDARIES = [
  ...LAYERS.flat()
    .filter((f) => f !== 'cli' && f !== 'queue')
    .flatMap((f) => [1, 2, 3, 4].map((d) => layerBoundary(f, d))),
  {
    files: ['src/queue/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/queue/trial-worker.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+backtest/', message: QUEUE_BACKTEST, allowTypeImports: true }] },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'out/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Use the seeded Rng from src/core/rng.ts.' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.ts', 'strategies/**/*.ts', 'backtest/**/*.ts'],
    ignores: ['src/clock/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Time comes from the injected Clock (src/clock).',
        },
      ],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  ...SIM_BOUNDARIES,
  ...LAYER_BOUNDARIES,
);
