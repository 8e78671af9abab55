import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The folder of the tradeloop installation that is running (the package root). */
export const INSTALL_ROOT = resolve(import.meta.dirname, '../../..');

/** The running installation's package version. */
export function installedVersion(): string {
  const manifest = JSON.parse(readFileSync(resolve(INSTALL_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}

/** The loader module that `node --import` takes to load plugins as the tradeloop command does. */
export const REGISTER_MODULE = resolve(INSTALL_ROOT, 'bin/register.js');
