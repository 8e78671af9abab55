// Importing this module makes the current thread load what the `tradeloop` command loads: TypeScript
// through tsx, and the plugin hooks (bin/plugin-hooks.js) that point `tradeloop` and
// `tradeloop/testkit` at this installation. The command, the optimizer's worker threads and
// `tradeloop test` (node --import) all load plugins through it.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
// registered after tsx, so these hooks run first
register('./plugin-hooks.js', import.meta.url, {
  data: {
    entries: {
      tradeloop: new URL('../src/index.ts', import.meta.url).href,
      'tradeloop/testkit': new URL('../src/testkit.ts', import.meta.url).href,
    },
  },
});
