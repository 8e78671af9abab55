import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { installRoot } from '../../core/install-root.js';

/** The folder of the tradeloop installation that is running (the package root). */
export const INSTALL_ROOT = installRoot(import.meta.dirname, 3);

/** The running installation's package version. */
export function installedVersion(): string {
  const manifest = JSON.parse(readFileSync(resolve(INSTALL_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}

/** The loader module that `node --import` takes to load plugins as the tradeloop command does. */
export const REGISTER_MODULE = resolve(INSTALL_ROOT, 'bin/register.js');
