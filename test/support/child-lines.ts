import type { ChildProcess } from 'node:child_process';

/** Resolves with the first `n` stdout lines of the child; rejects (with its stderr) if it exits first. */
export function firstLines(child: ChildProcess, n: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const lines = out.split('\n');
      if (lines.length > n) resolve(lines.slice(0, n));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)} before printing ${n} line(s): ${err}`)));
  });
}

/** Resolves with the first stdout line of the child. */
export async function firstLine(child: ChildProcess): Promise<string> {
  return (await firstLines(child, 1))[0]!;
}

/** Resolves with the stdout lines of the child once a line matching `last` has been printed. */
export function linesUntil(child: ChildProcess, last: RegExp): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const lines = out.split('\n').slice(0, -1);
      if (lines.some((l) => last.test(l))) resolve(lines);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)} before printing ${String(last)}; stdout: ${out}`)));
  });
}
