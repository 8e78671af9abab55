// Whether dist/ (the compiled command and package) is current with the TypeScript sources, cheaply
// enough to ask on every start of the `tradeloop` command.
//
// `npm run build` (bin/build.js) writes dist/build-stamp.json: the time the build started, the
// sources it compiled (each .js in dist/ maps back to one .ts), the folders holding them, and one
// hash of their contents. dist/ is current when no listed source or folder changed after that time
// (a stat each, no folder listing: an edit changes the file, a new or removed file its folder).
// When some did (a checkout, an edit, an install that unpacked the files with their own times), the
// contents decide: the same hash means current, and the stamp takes the new times.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installation's folder (package.json, src/, dist/). */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const STAMP = join(ROOT, 'dist', 'build-stamp.json');
/**
 * Files besides the sources whose change changes the build; an installed package has none (they are
 * not shipped), and is not stale for that.
 */
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json'];

/** The sources dist/ was compiled from (relative paths, sorted), found from what it holds. */
export function compiledSources(root = ROOT) {
  const dist = join(root, 'dist');
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.js')) {
        const source = relative(dist, path).replace(/\.js$/, '.ts');
        if (existsSync(join(root, source))) out.push(source);
      }
    }
  };
  walk(dist);
  return out.sort();
}

/** One hash over the files' paths and contents. */
export function sourcesHash(files, root = ROOT) {
  // node:crypto loads only when the contents are hashed (a build, or times that changed), not at every start
  const { createHash } = createRequire(import.meta.url)('node:crypto');
  const hash = createHash('sha256');
  for (const f of files)
    hash
      .update(`${f}\0`)
      .update(readFileSync(join(root, f)))
      .update('\0');
  return hash.digest('hex');
}

/** Writes the stamp of a build that started at `startedAt` (ms since the epoch). */
export function writeStamp(startedAt, root = ROOT) {
  const files = compiledSources(root);
  const dirs = [...new Set(files.map((f) => dirname(f)))].sort();
  const config = CONFIG_FILES.filter((f) => existsSync(join(root, f)));
  const stamp = { startedAt, files, dirs, config, hash: sourcesHash(files, root) };
  writeFileSync(join(root, 'dist', 'build-stamp.json'), `${JSON.stringify(stamp)}\n`);
}

/** The first listed file or folder changed after `time`, or undefined. */
function changedAfter(paths, time, root) {
  // one stat a path at every start: the root joined once, each path appended (relative, normalized by the build)
  const base = join(root, '/');
  for (const p of paths) {
    let stat;
    try {
      stat = statSync(base + p, { throwIfNoEntry: false });
    } catch {
      return p; // unreadable
    }
    if (stat === undefined || stat.mtimeMs > time) return p; // removed, or changed
  }
  return undefined;
}

/**
 * Why dist/ cannot stand in for the sources (a sentence naming the file and the fix), or undefined
 * when it is current.
 */
export function distProblem(root = ROOT) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, 'dist', 'build-stamp.json'), 'utf8'));
  } catch {
    return existsSync(join(root, 'dist'))
      ? 'dist/ has no build stamp (npm run build makes it)'
      : 'dist/ is missing (npm run build makes it)';
  }
  // the command, the package and the optimizer's threads load the bundle (bin/bundle.js)
  if (!existsSync(join(root, 'dist', 'bundle', 'main.js'))) return 'dist/ has no bundle (npm run build makes it)';
  const present = stamp.config.filter((f) => existsSync(join(root, f)));
  const config = changedAfter(present, stamp.startedAt, root);
  if (config !== undefined) return `${config} changed after the last build (npm run build brings dist/ up to date)`;
  const changed = changedAfter(stamp.files, stamp.startedAt, root) ?? changedAfter(stamp.dirs, stamp.startedAt, root);
  if (changed === undefined) return undefined;
  const newer = compiledFilesIn(stamp, root);
  if (newer !== undefined) return `${newer} changed after the last build (npm run build brings dist/ up to date)`;
  // the same contents with newer times: current; remember the times so the next start is quick
  try {
    writeFileSync(join(root, 'dist', 'build-stamp.json'), `${JSON.stringify({ ...stamp, startedAt: Date.now() })}\n`);
  } catch {
    // a read-only install: the contents are checked again next time
  }
  return undefined;
}

/** A source whose contents differ from the build's (or a new source), or undefined when none does. */
function compiledFilesIn(stamp, root) {
  const missing = stamp.files.find((f) => !existsSync(join(root, f)));
  if (missing !== undefined) return missing;
  // a folder gained a .ts file: it is compiled only if imported, which an edit of a listed file shows
  if (sourcesHash(stamp.files, root) === stamp.hash) return undefined;
  const changed = changedAfter(stamp.files, stamp.startedAt, root);
  return changed ?? 'a source';
}
