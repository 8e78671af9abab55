import { createWriteStream, type WriteStream } from 'node:fs';
import { CENSOR, isSecretKey, SecretSet } from '../../log/index.js';
import { ResponseDecoder } from './decode.js';
import { RECORDING_HEADER } from './recording-format.js';
import { parseStreamName } from './stream-names.js';

/** One response as a recording keeps it: local receive time, stream name, parsed body. */
export interface RecordedResponse {
  readonly at: number;
  readonly stream: string;
  readonly body: unknown;
}

/** Where a polling source sends every response it receives. */
export interface ResponseSink {
  write(entry: RecordedResponse): void;
  close(): Promise<void>;
}

export { RECORDING_HEADER } from './recording-format.js';

/** One strategy of a recorded run: its name, resolved params and, for a plugin, its content hashes. */
export interface RecordedStrategy {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** What was given to load it (built-in name or plugin file). */
  readonly spec?: string;
  readonly builtin?: boolean;
  /** sha256 over the plugin and every local file it imports. */
  readonly hash?: string;
  /** Path relative to the plugin's folder → sha256 of its content. */
  readonly files?: Readonly<Record<string, string>>;
}

/** The warm-up a run loaded before going live, and the prices it got (market → [epoch ms, price]). */
export interface RecordedWarmUp {
  readonly increment: string;
  readonly points: number;
  readonly prices?: Readonly<Record<string, readonly (readonly [number, string])[]>>;
}

/**
 * What a recorded run was, written in the header line (`run`) so a replay or a divergence report
 * can re-run the same thing: strategies, params, plugin hashes, risk limits, fees, the tradeloop
 * version and the warm-up history. Money stays in wire strings. A recording without it still reads.
 */
export interface RecordingRunInfo {
  readonly tradeloopVersion: string;
  /** Epoch ms the run started. */
  readonly startedAt?: number;
  /** The environment it ran in (local, sandbox, production), if known. */
  readonly environment?: string;
  readonly strategies: readonly RecordedStrategy[];
  /** The risk limits in force (the config's risk section, as loaded). */
  readonly riskLimits?: unknown;
  /** Fees as the run knew them, e.g. {"taker_bps": "10", "maker_bps": "5"} or the venue's fee rows. */
  readonly fees?: unknown;
  readonly warmUp?: RecordedWarmUp;
}

export interface JsonLinesRecorderOptions {
  /** Secret values masked wherever they appear (secret-named fields are always censored). */
  readonly secrets?: SecretSet;
  /** Lines are dropped (and counted) while this many bytes wait for the disk (default 8 MiB). */
  readonly maxBufferedBytes?: number;
  /** What the run is, written into the header line (see RecordingRunInfo). */
  readonly run?: RecordingRunInfo;
}

/**
 * Appends each response to a JSON-lines file, after redaction, so a live run can be replayed
 * through the same decoding later. Memory stays bounded: while the disk lags by more than
 * `maxBufferedBytes` new lines are dropped and counted rather than queued without limit.
 *
 * When the run information asks for a warm-up (`run.warmUp.points` > 0), the header line waits for
 * it: the `history:<market>` responses the warm-up records are kept back until the first other
 * response (or `close()`), and their prices (the last `points` of each market, the latest response
 * of a market winning) go into `run.warmUp.prices`, so the header alone can warm a replay. The
 * history lines still follow the header, as older readers expect them.
 */
export class JsonLinesRecorder implements ResponseSink {
  private readonly out: WriteStream;
  private readonly maxBufferedBytes: number;
  private droppedLines = 0;
  private writtenLines = 0;
  private closed = false;
  private readonly secrets: SecretSet;
  /** Lines kept back while the header waits for the warm-up (undefined once it is written). */
  private held: string[] | undefined;
  private readonly warmUpPrices = new Map<string, (readonly [number, string])[]>();

  constructor(
    readonly path: string,
    private readonly options: JsonLinesRecorderOptions = {},
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.secrets = options.secrets ?? new SecretSet();
    this.out = createWriteStream(path, { flags: 'a', encoding: 'utf8' });
    this.out.on('error', () => {
      this.closed = true;
    });
    if ((options.run?.warmUp?.points ?? 0) > 0) this.held = [];
    else this.writeHeader();
  }

  write(entry: RecordedResponse): void {
    if (this.closed) return;
    if (this.held !== undefined) {
      if (this.holdWarmUp(entry)) return;
      this.writeHeader();
    }
    if (this.out.writableLength > this.maxBufferedBytes) {
      this.droppedLines++;
      return;
    }
    this.out.write(this.line(entry));
    this.writtenLines++;
  }

  private line(entry: RecordedResponse): string {
    return `${JSON.stringify({ at: entry.at, stream: entry.stream, body: withoutAliases(entry.body) }, this.redact)}\n`;
  }

  /** Keeps a warm-up response back (true), noting its prices for the header; false for any other stream. */
  private holdWarmUp(entry: RecordedResponse): boolean {
    const id = parseStreamName(entry.stream);
    if (id?.kind !== 'history' || id.market === undefined) return false;
    let prices: (readonly [number, string])[];
    try {
      prices = new ResponseDecoder()
        .decode(id, entry.body, entry.at)
        .market.map((e) => [e.at, String((e as { price: number }).price)] as const);
    } catch {
      prices = [];
    }
    const points = this.options.run?.warmUp?.points ?? 0;
    this.warmUpPrices.set(id.market, prices.slice(Math.max(0, prices.length - points)));
    this.held!.push(this.line(entry));
    return true;
  }

  /** The header line (with the warm-up prices kept back, if any), then the lines held for it. */
  private writeHeader(): void {
    const run = this.options.run;
    const prices = Object.fromEntries([...this.warmUpPrices].sort(([a], [b]) => a.localeCompare(b)));
    const withPrices = run?.warmUp !== undefined && this.warmUpPrices.size > 0 ? { ...run, warmUp: { ...run.warmUp, prices } } : run;
    const header = withPrices === undefined ? RECORDING_HEADER : { ...RECORDING_HEADER, run: withPrices };
    this.out.write(`${JSON.stringify(header, this.redact)}\n`);
    for (const l of this.held ?? []) this.out.write(l);
    this.writtenLines += this.held?.length ?? 0;
    this.held = undefined;
  }

  /** Censors secret-named fields and masks known secret values inside strings. */
  private readonly redact = (key: string, value: unknown): unknown => {
    if (key !== '' && isSecretKey(key)) return CENSOR;
    if (typeof value === 'string') return this.secrets.scrub(value);
    return value;
  };

  /** Lines written and lines dropped because the disk lagged. */
  stats(): { readonly written: number; readonly dropped: number } {
    return { written: this.writtenLines, dropped: this.droppedLines };
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.held !== undefined) this.writeHeader();
    this.closed = true;
    return new Promise<void>((resolve, reject) => {
      this.out.end((err?: Error | null) => (err ? reject(err) : resolve()));
    });
  }
}

/**
 * The client normalises list shapes by adding `items` beside the server's own key (`prices`), both
 * naming one array: keep the first key that holds each value once, so the file does not carry the
 * same list twice.
 */
function withoutAliases(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const seen = new Set<unknown>();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v !== null && typeof v === 'object') {
      if (seen.has(v)) continue;
      seen.add(v);
    }
    out[k] = v;
  }
  if ('items' in body && !('items' in out)) {
    const alias = Object.keys(out).find((k) => out[k] === (body as { items: unknown }).items);
    if (alias !== undefined) {
      out.items = out[alias];
      delete out[alias];
    }
  }
  return out;
}
