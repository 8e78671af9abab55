// Module resolution hooks of the `tradeloop` command (registered by bin/tradeloop.js with
// module.register, so they run in Node's loader thread: plain JavaScript, no TypeScript).
//
// 1. `tradeloop` and `tradeloop/testkit` resolve to the tradeloop that is running, whatever folder the
//    importing file is in: a plugin shares the running engine's modules (one zod, one Decimal class),
//    with no install in the plugin's folder and no version skew.
// 2. A plugin file (.ts, .js) outside any package that says `"type": "module"` is still an ES module
//    when it is written as one, so `import`/`export` work in a bare folder.
// 3. A bare import that cannot be found fails with the package's name and the fix.
// 4. `import.meta.resolve('tradeloop-resolve:' + JSON { specifier, parentURL })` answers where the
//    loader would load `specifier` from in `parentURL`, without loading it: a queue worker walks a
//    plugin's module graph with it and checks the files' hashes before importing any of them.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** @type {Record<string, string>} */
let entries = {};

export function initialize(data) {
  entries = data?.entries ?? {};
}

const PLUGIN_FILE = /\.(ts|js|mts|mjs)$/;
const ESM_SYNTAX = /^\s*(import\s[^(]|import\{|export\s)/m;

/** The `type` of the nearest package.json above a file, or undefined when there is none. */
function packageType(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return JSON.parse(readFileSync(manifest, 'utf8')).type ?? 'commonjs';
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function isBare(specifier) {
  return !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier) && !specifier.startsWith('#');
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const RESOLVE_REQUEST = 'tradeloop-resolve:';
const RESOLVED = 'tradeloop-resolved:';

export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith(RESOLVE_REQUEST)) {
    const request = specifier.slice(RESOLVE_REQUEST.length);
    if (request === 'probe') return { url: `${RESOLVED}probe`, shortCircuit: true };
    const { specifier: inner, parentURL } = JSON.parse(decodeURIComponent(request));
    const found = await resolve(inner, { ...context, parentURL }, nextResolve);
    return { url: RESOLVED + encodeURIComponent(found.url), shortCircuit: true };
  }
  const mapped = entries[specifier];
  if (mapped !== undefined) return nextResolve(mapped, context);
  let resolved;
  try {
    resolved = await nextResolve(specifier, context);
  } catch (err) {
    const parent = context.parentURL?.startsWith('file:') ? fileURLToPath(context.parentURL) : undefined;
    if (err?.code === 'ERR_MODULE_NOT_FOUND' && isBare(specifier) && parent !== undefined && !parent.includes('/node_modules/')) {
      const name = packageName(specifier);
      const missing = new Error(
        `${parent} imports "${specifier}", but the package "${name}" is not installed for that file: ` +
          `run \`npm install ${name}\` in the plugin's project (or import what tradeloop offers from "tradeloop": z, D, the indicators)`,
      );
      missing.code = 'ERR_MODULE_NOT_FOUND';
      throw missing;
    }
    throw err;
  }
  // A .ts/.js file in no package, or in a CommonJS one, that is written with import/export: load it as
  // an ES module (plugins are; a folder with no package.json says nothing).
  if (resolved.url.startsWith('file:') && PLUGIN_FILE.test(resolved.url) && !resolved.url.includes('/node_modules/')) {
    const file = fileURLToPath(resolved.url);
    if (resolved.format !== 'module' && packageType(file) !== 'module') {
      try {
        if (ESM_SYNTAX.test(readFileSync(file, 'utf8'))) return { ...resolved, format: 'module' };
      } catch {
        // unreadable: let the loader report it
      }
    }
  }
  return resolved;
}
