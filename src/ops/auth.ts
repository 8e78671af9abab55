/**
 * Who may talk to a running bot's server. A bot on loopback is still reachable from every web page
 * the operator's browser opens: a page on another site can send requests to 127.0.0.1 (cross-site
 * requests) or resolve its own name to 127.0.0.1 (DNS rebinding). So every data and control request
 * needs the bearer token, and requests whose Host or Origin is not the address the server is bound
 * to are refused before the token is even looked at.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { InputError } from '../core/index.js';
import { UI_TOKEN_VARIABLE } from './wanted.js';

export { UI_TOKEN_VARIABLE } from './wanted.js';

/** At least this many characters in a token taken from the environment (a guessable token is no lock). */
export const MIN_TOKEN_LENGTH = 16;

export interface UiToken {
  readonly value: string;
  /** True when the run made it (it is printed once with the dashboard's URL). */
  readonly generated: boolean;
}

/** The token from `TRADELOOP_UI_TOKEN`, or a fresh random one; a short token is refused, naming the variable. */
export function uiTokenFrom(env: NodeJS.ProcessEnv): UiToken {
  const value = env[UI_TOKEN_VARIABLE];
  if (value === undefined || value === '') return { value: randomBytes(24).toString('base64url'), generated: true };
  if (value.length < MIN_TOKEN_LENGTH || /\s/.test(value)) {
    throw new InputError(
      UI_TOKEN_VARIABLE,
      `must be at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. the output of \`openssl rand -hex 24\`), or unset for a token made per run`,
    );
  }
  return { value, generated: false };
}

/** Whether the request's `Authorization: Bearer …` header carries `token` (compared in constant time). */
export function hasToken(headers: IncomingHttpHeaders, token: string): boolean {
  const header = headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * The Host values a request may carry: the bound address with its port, and `localhost:<port>` when
 * bound to a loopback address (what people type). Any other name is refused: it is how a rebound DNS
 * name reaches a loopback server.
 */
export function allowedHosts(host: string, port: number): ReadonlySet<string> {
  const hosts = new Set<string>([`${hostForUrl(host)}:${port}`]);
  if (isLoopback(host)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) hosts.add(`${h}:${port}`);
  return hosts;
}

/** Why a request is refused for its Host, Origin or fetch metadata, or undefined when it may go on. */
export function refusedOrigin(headers: IncomingHttpHeaders, hosts: ReadonlySet<string>): string | undefined {
  const host = headers.host;
  if (host === undefined || !hosts.has(host.toLowerCase())) return `Host ${host ?? '(none)'} is not this server's address`;
  const origin = headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originHost: string;
    try {
      const url = new URL(origin);
      originHost = url.protocol === 'http:' ? url.host : '';
    } catch {
      originHost = '';
    }
    if (!hosts.has(originHost.toLowerCase())) return `Origin ${origin} is not this server's address (cross-site requests are refused)`;
  } else if (origin === 'null') {
    return 'Origin null is refused (cross-site requests are refused)';
  }
  if (headers['sec-fetch-site'] === 'cross-site') return 'cross-site requests are refused';
  return undefined;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** An address as it appears in a URL's host (IPv6 in brackets). */
export function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
