import { parseIsoTime } from '../sim/time.js';
import { badRequest } from './problem.js';

/**
 * Typed access to a request's query string with the platform's conventions: arrays repeat the
 * plain name, nested filters use dotted names (`range.begin`). Bad values are 400s naming the
 * parameter and the expected form.
 */
export class Query {
  constructor(private readonly params: URLSearchParams) {}

  string(name: string): string | undefined {
    const v = this.params.get(name);
    return v === null || v === '' ? undefined : v;
  }

  required(name: string, example: string): string {
    const v = this.string(name);
    if (v === undefined) throw badRequest(name, `required, e.g. ${name}=${example}`);
    return v;
  }

  array(name: string, max = 100): string[] {
    const values = this.params.getAll(name).filter((v) => v !== '');
    if (this.params.has(`${name}[]`)) throw badRequest(`${name}[]`, `repeat the plain name instead: ${name}=a&${name}=b`);
    if (values.length > max) throw badRequest(name, `at most ${max} values, got ${values.length}`);
    return values;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v))
      throw badRequest(name, `${JSON.stringify(v)} is not valid: use one of ${allowed.join(', ')}`);
    return v as T;
  }

  int(name: string, min: number, max: number): number | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max)
      throw badRequest(name, `expected an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return Number(v);
  }

  bool(name: string): boolean {
    const v = this.string(name);
    if (v === undefined || v === 'false') return false;
    if (v === 'true') return true;
    throw badRequest(name, `expected true or false, got ${JSON.stringify(v)}`);
  }

  time(name: string): number | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    try {
      return parseIsoTime(v, name);
    } catch {
      throw badRequest(name, `expected an RFC 3339 timestamp such as 2025-03-04T10:00:00Z, got ${JSON.stringify(v)}`);
    }
  }
}
