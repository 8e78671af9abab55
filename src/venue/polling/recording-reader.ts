import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { InputError } from '../../core/index.js';
import { RECORDING_HEADER, type RecordedResponse } from './recorder.js';

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
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new InputError('record', `${path} does not exist: give the file a run wrote with streams.record`);
    throw err;
  } finally {
    lines.close();
  }
  if (n === 0) throw new InputError('record', `${path} is empty: expected a recording written with streams.record`);
}

function parseLine(path: string, n: number, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new InputError('record', `${path} line ${n} is not JSON: the file is damaged (a run stopped mid-write leaves at most the last line incomplete: delete it)`);
  }
}

function checkHeader(path: string, value: unknown): void {
  const h = value as { format?: unknown; version?: unknown } | null;
  if (h?.format !== RECORDING_HEADER.format || h.version !== RECORDING_HEADER.version) {
    throw new InputError('record', `${path} is not a tradeloop stream recording (version ${RECORDING_HEADER.version}): its first line must be ${JSON.stringify(RECORDING_HEADER)}`);
  }
}

function toEntry(path: string, n: number, value: unknown): RecordedLine {
  const e = value as { at?: unknown; stream?: unknown; body?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.at !== 'number' || !Number.isFinite(e.at) || typeof e.stream !== 'string') {
    throw new InputError('record', `${path} line ${n}: expected {"at": epoch ms, "stream": name, "body": response}`);
  }
  return { at: e.at, stream: e.stream, body: e.body, line: n };
}
