/**
 * The local files a plugin loads: its module graph, walked the way the loader walks it, without
 * running any of it. Each file's source is tokenized (comments, strings, template literals and
 * regular expressions skipped, so a commented-out or quoted import is not one and a real one is not
 * missed), and its import specifiers (static imports and re-exports, side-effect imports, `import()`
 * and `require()` with a literal) are resolved by the loader itself when the `tradeloop` command's
 * module hooks are installed (bin/plugin-hooks.js answers a resolve request for any parent), so
 * TypeScript's `.js` → `.ts` mapping, index files, tsconfig paths and package imports come out as the
 * loader will load them; elsewhere (a test's own process) by the same rules written out here. Every
 * file is keyed by its real path (symlinks followed, as the loader does). Packages (node_modules,
 * node: built-ins, tradeloop itself) are not part of the graph: the tradeloop version pins those.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface PluginGraph {
  /** Real path of every local file the plugin loads → sha256 of its content; the plugin itself first. */
  readonly files: ReadonlyMap<string, string>;
  /** `import()`/`require()` calls whose specifier is not a literal, as `file: import(...)`: their files cannot be known before running. */
  readonly computed: readonly string[];
}

/** Walks the plugin's local module graph from `file` (its real path is the first key). */
export function pluginGraph(file: string): PluginGraph {
  const files = new Map<string, string>();
  const computed: string[] = [];
  const visit = (f: string): void => {
    if (files.has(f)) return;
    const bytes = readFileSync(f);
    files.set(f, createHash('sha256').update(bytes).digest('hex'));
    const scan = scanImports(bytes.toString('utf8'));
    for (const c of scan.computed) computed.push(`${f}: ${c}`);
    for (const spec of scan.specifiers) {
      const found = resolveImport(spec, f);
      if (found !== undefined) visit(found);
    }
  };
  visit(realpathSync(file));
  return { files, computed };
}

/** What a source imports: literal specifiers, and how many dynamic loads use a computed one. */
export function scanImports(source: string): { specifiers: string[]; computed: string[] } {
  const tokens = tokenize(source);
  const specifiers: string[] = [];
  const computed: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'word') continue;
    const prev = tokens[i - 1];
    // a property access (`x.import`, `obj.require(`) is not the keyword
    if (prev?.kind === 'punct' && prev.text === '.' && tokens[i - 2]?.text !== '.') continue;
    const next = tokens[i + 1];
    const after = tokens[i + 2];
    if (t.text === 'import' && next?.kind === 'string') specifiers.push(next.text);
    else if (t.text === 'from' && next?.kind === 'string') specifiers.push(next.text);
    else if ((t.text === 'import' || t.text === 'require') && next?.kind === 'punct' && next.text === '(') {
      if (after?.kind === 'string' && (tokens[i + 3]?.text === ')' || tokens[i + 3]?.text === ',')) specifiers.push(after.text);
      else computed.push(`${t.text}(...)`);
    }
  }
  return { specifiers, computed };
}

interface Token {
  readonly kind: 'word' | 'string' | 'punct' | 'number' | 'template' | 'regex';
  readonly text: string;
}

const REGEX_AFTER_WORDS = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

/** Enough of a JavaScript/TypeScript tokenizer to tell code from comments, strings and regexes. */
function tokenize(src: string): Token[] {
  const out: Token[] = [];
  // template literals nest: `a ${ `b ${c}` }`; each level counts its open braces
  const templateDepth: number[] = [];
  let i = 0;
  const n = src.length;
  const regexAllowed = (): boolean => {
    const p = out[out.length - 1];
    if (p === undefined) return true;
    if (p.kind === 'word') return REGEX_AFTER_WORDS.has(p.text);
    if (p.kind === 'punct') return p.text !== ')' && p.text !== ']' && p.text !== '}';
    return false;
  };
  const readTemplate = (): void => {
    // at the character after ` or after the } closing a ${ }
    let text = '';
    while (i < n) {
      const ch = src[i]!;
      if (ch === '\\') {
        text += src.slice(i, i + 2);
        i += 2;
      } else if (ch === '`') {
        i++;
        out.push({ kind: 'template', text });
        return;
      } else if (ch === '$' && src[i + 1] === '{') {
        i += 2;
        out.push({ kind: 'template', text });
        templateDepth.push(0);
        return;
      } else {
        text += ch;
        i++;
      }
    }
    out.push({ kind: 'template', text });
  };
  while (i < n) {
    const ch = src[i]!;
    if (ch === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
    } else if (ch === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
    } else if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"' || ch === "'") {
      let text = '';
      i++;
      while (i < n && src[i] !== ch && src[i] !== '\n') {
        if (src[i] === '\\') {
          text += unescapeChar(src[i + 1] ?? '');
          i += 2;
        } else text += src[i++]!;
      }
      i++;
      out.push({ kind: 'string', text });
    } else if (ch === '`') {
      i++;
      readTemplate();
    } else if (ch === '/' && regexAllowed()) {
      let inClass = false;
      i++;
      let text = '';
      while (i < n && src[i] !== '\n') {
        const c = src[i]!;
        if (c === '\\') {
          text += src.slice(i, i + 2);
          i += 2;
          continue;
        }
        if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) break;
        text += c;
        i++;
      }
      i++;
      while (i < n && /[a-z]/i.test(src[i]!)) i++;
      out.push({ kind: 'regex', text });
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(ch)) {
      const start = i;
      while (i < n && /[\w$\u0080-\uffff]/.test(src[i]!)) i++;
      out.push({ kind: 'word', text: src.slice(start, i) });
    } else if (/[0-9]/.test(ch)) {
      const start = i;
      while (i < n && /[\w.]/.test(src[i]!)) i++;
      out.push({ kind: 'number', text: src.slice(start, i) });
    } else {
      i++;
      if (templateDepth.length > 0) {
        const top = templateDepth.length - 1;
        if (ch === '{') templateDepth[top]!++;
        else if (ch === '}') {
          if (templateDepth[top] === 0) {
            templateDepth.pop();
            readTemplate();
            continue;
          }
          templateDepth[top]!--;
        }
      }
      out.push({ kind: 'punct', text: ch });
    }
  }
  return out;
}

function unescapeChar(c: string): string {
  return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c;
}

const RESOLVE_REQUEST = 'tradeloop-resolve:';
const RESOLVED = 'tradeloop-resolved:';
let loaderResolves: boolean | undefined;

/**
 * The real path of the local file `spec` names from `parentFile`, or undefined for a package, a
 * built-in, tradeloop itself, or a file that is not there (the loader would fail on it before
 * running anything).
 */
export function resolveImport(spec: string, parentFile: string): string | undefined {
  if (spec === 'tradeloop' || spec.startsWith('tradeloop/') || spec.startsWith('node:')) return undefined;
  const viaLoader = loaderResolve(spec, parentFile);
  const url = viaLoader === null ? ruleResolve(spec, parentFile) : viaLoader;
  if (url === undefined || !url.startsWith('file:')) return undefined;
  const file = fileURLToPath(url.replace(/[?#].*$/, ''));
  if (file.split(/[\\/]/).includes('node_modules')) return undefined;
  // tsx marks a module it has already loaded with an escaped query inside the path
  // (`helper.ts%3Ftsx-commonjs-export-preparse=1`): the file is the path before it
  for (const f of file.includes('?') ? [file, file.slice(0, file.indexOf('?'))] : [file]) {
    try {
      return realpathSync(f);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** The loader's own answer (a URL, or undefined when it cannot resolve it); null when its hooks are not installed. */
function loaderResolve(spec: string, parentFile: string): string | undefined | null {
  if (loaderResolves === undefined) {
    try {
      loaderResolves = import.meta.resolve(`${RESOLVE_REQUEST}probe`) === `${RESOLVED}probe`;
    } catch {
      loaderResolves = false;
    }
  }
  if (!loaderResolves) return null;
  try {
    const answer = import.meta.resolve(
      RESOLVE_REQUEST + encodeURIComponent(JSON.stringify({ specifier: spec, parentURL: pathToFileURL(parentFile).href })),
    );
    return answer.startsWith(RESOLVED) ? decodeURIComponent(answer.slice(RESOLVED.length)) : undefined;
  } catch {
    return undefined;
  }
}

const JS_TO_TS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx', '.ts'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
const TRY_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mts', '.mjs', '.cts', '.cjs'];

/** The loader's rules for a relative, absolute or file: specifier (tsx over node): bare ones are packages. */
function ruleResolve(spec: string, parentFile: string): string | undefined {
  let base: string;
  const path = spec.replace(/[?#].*$/, '');
  if (path.startsWith('file:')) base = fileURLToPath(path);
  else if (path.startsWith('./') || path.startsWith('../') || path === '.' || path === '..') base = resolve(dirname(parentFile), path);
  else if (isAbsolute(path)) base = path;
  else return undefined;
  const ext = /\.[cm]?jsx?$/.exec(base)?.[0];
  const candidates: string[] = [];
  if (ext !== undefined && /\.[cm]?tsx?$/.test(parentFile)) for (const e of JS_TO_TS[ext]!) candidates.push(base.slice(0, -ext.length) + e);
  candidates.push(base);
  for (const e of TRY_EXTENSIONS) candidates.push(base + e);
  for (const e of TRY_EXTENSIONS) candidates.push(resolve(base, `index${e}`));
  const found = candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
  return found === undefined ? undefined : pathToFileURL(found).href;
}
