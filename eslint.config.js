// Lint rules: typescript-eslint's recommended set plus the house rules that a linter can check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The parts of src/sim (see src/sim/index.ts) and who may import them. Specifiers are matched as
// written: the parts sit one folder deep, so a part's imports of another part start with '../'.
const SIM_ASSEMBLY = 'sim|sim-options|sim-ticks|snapshot|index';
const boundary = (files, patterns, ignores = []) => ({ files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const noImport = (regex, message) => ({ regex, message });
const SIM_OUTSIDE = noImport('^\\.\\./\\.\\./(?!core/|clock/|platform/)', 'src/sim is built on src/core, src/clock and src/platform alone.');
const simPart = (part, others, why) =>
  boundary(
    [`src/sim/${part}/**/*.ts`],
    [
      noImport(`^\\.\\./(${others})/`, why),
      noImport(`^\\.\\./(${SIM_ASSEMBLY})\\.js$`, 'A part of src/sim never imports the assembled platform (sim.ts, sim-options, sim-ticks, snapshot, index).'),
      SIM_OUTSIDE,
    ],
    ['**/*.test.ts'],
  );
const SIM_KERNEL = ['errors', 'ids', 'time', 'hash', 'owners', 'wire-fields'].map((f) => `src/sim/${f}.ts`);
const SIM_BOUNDARIES = [
  boundary(
    SIM_KERNEL,
    [
      noImport('^\\./(prices|market|exchange|platform|replay)/', 'The kernel of src/sim (errors, ids, time, hash, owners, wire-fields) imports none of its parts.'),
      noImport(`^\\./(${SIM_ASSEMBLY})\\.js$`, 'The kernel of src/sim never imports the assembled platform.'),
      noImport('^\\.\\./(?!core/|clock/|platform/)', 'src/sim is built on src/core, src/clock and src/platform alone.'),
    ],
  ),
  boundary(
    ['src/sim/*.ts'],
    [
      noImport('^\\./replay/', 'The simulated platform does not run on point replay: replay/ is the backtester\'s.'),
      noImport('^\\.\\./(?!core/|clock/|platform/)', 'src/sim is built on src/core, src/clock and src/platform alone.'),
    ],
    [...SIM_KERNEL, '**/*.test.ts'],
  ),
  boundary(['src/sim/prices/**/*.ts'], [noImport('^\\.\\./(?!\\.\\./core/)', 'prices/ reads price files with src/core alone.')], ['**/*.test.ts']),
  simPart('market', 'exchange|platform|replay', 'market/ (the synthetic world) is built on the kernel and prices/ alone.'),
  simPart('exchange', 'platform|replay', 'exchange/ is built on the kernel and market/: it knows no platform area and no point replay.'),
  simPart('platform', 'replay', 'platform/ knows no point replay.'),
  simPart('replay', 'platform(?!/transfers\\.js$|/transfer-limit-rules\\.js$)', 'replay/ is built on the kernel, market/ and exchange/, and of platform/ on its transfer rules alone (transfers.ts, transfer-limit-rules.ts).'),
  boundary(
    ['src/sandbox/**/*.ts'],
    [
      noImport('(^|/)sim/(market|exchange|platform)/', 'The sandbox takes what src/sim\'s parts offer from src/sim/index.ts (or a top-level file).'),
      noImport('(^|/)sim/(replay|prices)/', 'The sandbox serves the simulated platform: point replay and price files are the backtester\'s.'),
    ],
  ),
  boundary(
    ['src/**/*.ts'],
    [{ ...noImport('(^|/)sim/index\\.js$', 'src/sim/index.ts is the sandbox\'s face and loads the whole simulated platform: import the file you need.'), allowTypeImports: true }],
    ['src/sim/**', 'src/sandbox/**'],
  ),
  // The built-in strategies are examples of the public API: they import what a user's plugin can.
  boundary(
    ['strategies/**/*.ts'],
    [noImport('^(?!tradeloop$)', 'A built-in strategy imports from tradeloop only (the public entry, src/index.ts), as a user\'s plugin does.')],
    ['**/*.test.ts'],
  ),
  boundary(
    ['strategies/**/*.test.ts'],
    [noImport('^(?!tradeloop$|tradeloop/testkit$|vitest$|\\./[a-z-]+\\.js$)', 'A built-in strategy\'s test imports tradeloop, tradeloop/testkit, vitest and the plugin it tests only.')],
  ),
  boundary(
    ['backtest/**/*.ts'],
    [noImport('(^|/)src/sim/(?!replay/|prices/)', 'A backtest runs on point replay and price files (src/sim/replay, src/sim/prices), never on SimPlatform.')],
  ),
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
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the seeded Rng from src/core/rng.ts.' },
      ],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.ts', 'strategies/**/*.ts', 'backtest/**/*.ts'],
    ignores: ['src/clock/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Time comes from the injected Clock (src/clock).' },
      ],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  ...SIM_BOUNDARIES,
);
