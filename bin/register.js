// Importing this module makes the current thread load what the `tradeloop` command loads: TypeScript
// through tsx, and the plugin hooks (bin/plugin-hooks.js) that point `tradeloop` and
// `tradeloop/testkit` at this installation. The command running from its sources (dist/ missing or
// stale), the optimizer's threads in that case, and `tradeloop test` (node --import) load through it;
// the compiled command registers the same hooks when it loads a plugin (src/strategy/plugin-loader.ts).
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
