import { Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let out = '';
  let err = '';
  const sink = (append: (s: string) => void): Writable =>
    new Writable({
      write(chunk, _enc, cb) {
        append(String(chunk));
        cb();
      },
    });
  const code = await main(argv, { stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), env });
  return { code, stdout: out, stderr: err };
}
