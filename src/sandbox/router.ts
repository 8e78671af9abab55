import { type IncomingMessage } from 'node:http';
import { type SimPlatform } from '../sim/sim.js';
import { problem } from './problem.js';
import { type Query } from './query.js';
import { type WireShapes } from './wire.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route handler gets: the sim, path parameters, typed query, the parsed body. */
export interface RouteContext {
  readonly sim: SimPlatform;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Query;
  readonly req: IncomingMessage;
  /** The JSON body as an object (400 when absent or not an object). */
  body(): Promise<Record<string, unknown>>;
  readonly shapes: WireShapes;
  /** The entity the caller's credential acts for (the primary entity on public routes). */
  readonly owner: string;
  /** The caller's client id (undefined on public routes). */
  readonly clientId?: string | undefined;
  /** `http://host:port` of this sandbox as the caller reached it (upload and download links). */
  readonly baseUrl: string;
}

/** One operation: method, path under the server root, scope (null = public), handler. */
export interface Route {
  readonly operation: string;
  readonly method: Method;
  readonly path: string;
  readonly scope: string | null;
  readonly handler: (ctx: RouteContext) => unknown;
}

interface CompiledRoute {
  readonly route: Route;
  readonly segments: readonly string[];
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
}

/**
 * The one router table: routes are declared per area (`routes/*.ts`) and matched by path
 * segments (`:name` captures one segment). A known path with another method is a 405.
 */
export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').filter(Boolean) }));
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').filter(Boolean);
    let pathKnown = false;
    for (const { route, segments } of this.compiled) {
      const params = matchSegments(segments, parts);
      if (params === undefined) continue;
      if (route.method === method) return { route, params };
      pathKnown = true;
    }
    if (pathKnown) throw problem(405, `method ${method} is not allowed on ${path}`);
    throw problem(
      404,
      path.startsWith('/v2/') || path === '/v2'
        ? `no operation at ${method} ${path}: not an operation of the platform API v2`
        : `no operation at ${method} ${path}: API paths start with /v2 (the base URL ends in /v2)`,
    );
  }

  routes(): Route[] {
    return this.compiled.map((c) => c.route);
  }
}

function matchSegments(segments: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.startsWith(':')) {
      try {
        params[seg.slice(1)] = decodeURIComponent(part);
      } catch {
        return undefined;
      }
    } else if (seg !== part) return undefined;
  }
  return params;
}
