import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { InputError, type MarketEvent, type MarketSymbol } from '../../core/index.js';
import { RECORDING_HEADER, type RecordedResponse, type RecordingRunInfo } from './recorder.js';

/** A recorded response and the 1-based line of the file it was read from (for error messages). */
export interface RecordedLine extends RecordedResponse {
  readonly line: number;
}

/**
 * Reads a recording line by line (memory bounded by one line), oldest first. Refuses a file that
 * is not a tradeloop stream recording, and names the line of any malformed entry.
 */
export async function* readRecording(path: string): AsyncGenerator<RecordedLine, void, undefined> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      if (line.trim() === '') continue;
      const value = parseLine(path, n, line);
      if (n === 1) {
        checkHeader(path, value);
        continue;
      }
      yield toEntry(path, n, value);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new InputError('record', `${path} does not exist: give the file a run wrote with streams.record`);
    throw err;
  } finally {
    lines.close();
  }
  if (n === 0) throw new InputError('record', `${path} is empty: expected a recording written with streams.record`);
}

/**
 * What the recording's header line says about the run (undefined for a recording written before
 * headers held it, or by a recorder not given it). Reads the first line only; refuses a file that
 * is not a recording, or whose run information is malformed, naming the field.
 */
export async function readRecordingHeader(path: string): Promise<RecordingRunInfo | undefined> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      const value = parseLine(path, 1, line);
      checkHeader(path, value);
      return checkRunInfo(path, (value as { run?: unknown }).run);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new InputError('record', `${path} does not exist: give the file a run wrote with streams.record`);
    throw err;
  } finally {
    lines.close();
  }
  throw new InputError('record', `${path} is empty: expected a recording written with streams.record`);
}

function checkRunInfo(path: string, run: unknown): RecordingRunInfo | undefined {
  if (run === undefined) return undefined;
  const bad = (field: string, want: string): never => {
    throw new InputError(
      'record',
      `${path} header: run.${field} should be ${want}; the header was edited or written by another program (remove "run" to replay the market data alone)`,
    );
  };
  if (run === null || typeof run !== 'object' || Array.isArray(run)) return bad('', 'an object');
  const r = run as Record<string, unknown>;
  if (typeof r.tradeloopVersion !== 'string') bad('tradeloopVersion', 'a version string');
  if (!Array.isArray(r.strategies)) return bad('strategies', 'a list');
  r.strategies.forEach((st: unknown, i) => {
    const o = st as Record<string, unknown> | null;
    if (o === null || typeof o !== 'object' || typeof o.name !== 'string') bad(`strategies[${i}].name`, 'a strategy name');
    if (o!.params === null || typeof o!.params !== 'object' || Array.isArray(o!.params))
      bad(`strategies[${i}].params`, 'an object of parameters');
  });
  if (r.startedAt !== undefined && (typeof r.startedAt !== 'number' || !Number.isFinite(r.startedAt)))
    bad('startedAt', 'epoch milliseconds');
  if (r.warmUp !== undefined) {
    const w = r.warmUp as Record<string, unknown> | null;
    if (w === null || typeof w !== 'object' || typeof w.increment !== 'string' || typeof w.points !== 'number')
      bad('warmUp', '{"increment": name, "points": count, "prices": {market: [[ms, price], …]}}');
    checkWarmUpPrices(w!.prices, bad);
  }
  return run as RecordingRunInfo;
}

function checkWarmUpPrices(prices: unknown, bad: (field: string, want: string) => never): void {
  if (prices === undefined) return;
  if (prices === null || typeof prices !== 'object' || Array.isArray(prices))
    bad('warmUp.prices', 'an object of market → [[epoch ms, price], …]');
  for (const [market, list] of Object.entries(prices as object)) {
    if (!Array.isArray(list)) bad(`warmUp.prices.${market}`, 'a list of [epoch ms, price] pairs');
    (list as unknown[]).forEach((p, i) => {
      const ok =
        Array.isArray(p) &&
        p.length === 2 &&
        typeof p[0] === 'number' &&
        Number.isFinite(p[0]) &&
        typeof p[1] === 'string' &&
        Number(p[1]) > 0;
      if (!ok) bad(`warmUp.prices.${market}[${i}]`, 'a pair [epoch ms, price above zero as a string]');
    });
  }
}

/**
 * The warm-up prices the header holds for `market` as price events, oldest first; undefined when the
 * header holds none for it (a recording from before headers held prices: its `history:` lines are
 * the warm-up then).
 */
export function headerWarmUp(run: RecordingRunInfo | undefined, market: MarketSymbol): MarketEvent[] | undefined {
  const list = run?.warmUp?.prices?.[market];
  if (list === undefined) return undefined;
  return list.map(([at, price]): MarketEvent => ({ kind: 'price', market, at, price: Number(price) })).sort((a, b) => a.at - b.at);
}

function parseLine(path: string, n: number, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new InputError(
      'record',
      `${path} line ${n} is not JSON: the file is damaged (a run stopped mid-write leaves at most the last line incomplete: delete it)`,
    );
  }
}

function checkHeader(path: string, value: unknown): void {
  const h = value as { format?: unknown; version?: unknown } | null;
  if (h?.format !== RECORDING_HEADER.format || h.version !== RECORDING_HEADER.version) {
    throw new InputError(
      'record',
      `${path} is not a tradeloop stream recording (version ${RECORDING_HEADER.version}): its first line must be ${JSON.stringify(RECORDING_HEADER)}`,
    );
  }
}

function toEntry(path: string, n: number, value: unknown): RecordedLine {
  const e = value as { at?: unknown; stream?: unknown; body?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.at !== 'number' || !Number.isFinite(e.at) || typeof e.stream !== 'string') {
    throw new InputError('record', `${path} line ${n}: expected {"at": epoch ms, "stream": name, "body": response}`);
  }
  return { at: e.at, stream: e.stream, body: e.body, line: n };
}
