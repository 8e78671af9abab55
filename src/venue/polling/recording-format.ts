/**
 * What marks a stream recording, apart from the modules that write and read one (the recorder, the
 * API's decoder, the HTTP client): a command that only asks whether a file is a recording (a backtest
 * on a price file) loads this alone.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** First line of a recording file: lets the replayer refuse anything else with a clear error. */
export const RECORDING_HEADER = { format: 'tradeloop-stream-recording', version: 1 } as const;

/** True when the file starts with the stream-recording header (read from its first bytes only). */
export function isRecordingFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
    return first.includes(`"${RECORDING_HEADER.format}"`);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
