/**
 * Which bot `tradeloop ctl` talks to: `--url` when given; else the dashboard file the run wrote beside
 * its journal (`--journal`, else the config's `journal.path`), so a run on `ui.port: 0` is found
 * without copying its address. The config module (YAML, the schema) is loaded only on that path.
 */
import { resolve as resolvePath } from 'node:path';
import { findDashboard } from '../live/dashboard-file.js';
import { CliExit } from './context.js';

export interface CtlTargetOptions {
  readonly url?: string;
  readonly journal?: string;
  readonly config?: string;
}

/** The bot's base URL, or a CliExit saying in our words why there is none. */
export async function ctlTarget(o: CtlTargetOptions): Promise<URL> {
  if (o.url !== undefined) {
    if (o.journal !== undefined || o.config !== undefined)
      throw new CliExit(2, 'error: --url names the bot itself: give it alone, or --journal/--config to find the bot from its journal');
    return parseUrl(o.url, '--url');
  }
  const journal = resolvePath(o.journal ?? (await configuredJournal(o.config)));
  if (journal.endsWith(':memory:'))
    throw new CliExit(
      2,
      "error: the config's journal is :memory:, so the run leaves no address beside it: give the dashboard's address with --url",
    );
  const found = findDashboard(journal);
  switch (found.kind) {
    case 'running':
      return parseUrl(found.info.url, found.file);
    case 'none':
      throw new CliExit(
        1,
        `error: no bot running for ${journal} (no ${found.file}): start it with tradeloop run --ui (or ui: in its config), or give the dashboard's address with --url`,
      );
    case 'stale':
      throw new CliExit(
        1,
        `error: no bot running for ${journal}: ${found.file} names pid ${found.info.pid} (started ${found.info.startedAt}), which is gone (the run was killed); start the bot again, or give --url`,
      );
    case 'unreadable':
      throw new CliExit(1, `error: ${found.file} cannot be read (${found.reason}): give the dashboard's address with --url`);
  }
}

async function configuredJournal(file: string | undefined): Promise<string> {
  const { loadConfig } = await import('../config/index.js');
  return loadConfig(file).config.journal.path;
}

function parseUrl(text: string, from: string): URL {
  try {
    const base = new URL(text);
    if (base.protocol === 'http:' || base.protocol === 'https:') return base;
  } catch {
    // said below
  }
  throw new CliExit(
    2,
    `error: ${from === '--url' ? '--url' : `the address in ${from}`} ${JSON.stringify(text)} is not an http:// or https:// address such as http://127.0.0.1:8787 (or https://bot.example.com behind a TLS proxy)`,
  );
}
