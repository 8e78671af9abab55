// Loaded (plain JavaScript, before any loader) by an optimizer thread that runs the compiled kernel
// for a strategy that is not a compiled built-in: registers tsx for the plugin's TypeScript, then the
// plugin hooks (bin/plugin-hooks.js) with `tradeloop` pointed at the compiled kernel, in the order
// bin/register.js uses (registered after tsx, so the plugin hooks run first).
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

/** @param {Record<string, string>} entries what `tradeloop` and `tradeloop/testkit` resolve to */
export function registerPluginLoader(entries) {
  registerTsx();
  register('../../bin/plugin-hooks.js', import.meta.url, { data: { entries } });
}
