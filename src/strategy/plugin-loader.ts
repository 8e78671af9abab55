import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installRoot } from '../core/install-root.js';

let ready: Promise<void> | undefined;

/**
 * Makes a user's plugin loadable by the compiled command: registers tsx (for a `.ts` plugin) and the
 * plugin hooks (bin/plugin-hooks.js) that point its `import ... from 'tradeloop'` at the compiled
 * kernel that is running, wherever the plugin's folder is. Done once, and only when a plugin is
 * loaded, so a command that loads none never loads tsx. Running from the sources there is nothing
 * to do: bin/register.js (or the test runner) already loads TypeScript and maps `tradeloop`.
 */
export function preparePluginLoader(): Promise<void> {
  if (!import.meta.url.endsWith('.js')) return Promise.resolve();
  return (ready ??= registerHooks());
}

async function registerHooks(): Promise<void> {
  const dist = join(import.meta.dirname, '..', '..');
  // the same registration an optimizer thread running the compiled kernel makes
  const loader = pathToFileURL(join(installRoot(import.meta.dirname, 2), 'backtest', 'optimize', 'plugin-loader.js')).href;
  const { registerPluginLoader } = (await import(loader)) as { registerPluginLoader: (entries: Record<string, string>) => void };
  registerPluginLoader({
    tradeloop: pathToFileURL(join(dist, 'bundle', 'index.js')).href,
    'tradeloop/testkit': pathToFileURL(join(dist, 'bundle', 'testkit.js')).href,
  });
}
