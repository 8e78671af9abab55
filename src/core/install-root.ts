import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The folder of the running tradeloop installation (package.json, bin/, src/, dist/), from the folder
 * of a module `depth` levels below it in the sources: the same whether that module runs from its
 * TypeScript source or compiled into dist/ (one level deeper).
 */
export function installRoot(moduleDir: string, depth: number): string {
  const up = resolve(moduleDir, ...Array<string>(depth).fill('..'));
  return basename(up) === 'dist' && !existsSync(join(up, 'package.json')) ? dirname(up) : up;
}
