import { type Command } from 'commander';
import { type Writable } from 'node:stream';
import type { ApiTarget, PortSetting } from './failures.js';

/** What every command gets: output streams (stdout for results only) and the process env. */
export interface CliContext {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: NodeJS.ProcessEnv;
  /** Set by a command to report its exit code. */
  exitCode: number;
  /** Set by a command that calls the API: a host it cannot reach is named with the setting that chose it. */
  apiTarget?: ApiTarget;
  /** Set by a command that listens on a port: a port in use is named with the setting that chose it. */
  portSetting?: PortSetting;
}

/** A command module adds its subcommand to the program. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/** Thrown by commands to exit with a code after printing their own message. */
export class CliExit extends Error {
  constructor(
    readonly code: number,
    message = '',
  ) {
    super(message);
  }
}

/** Writes one line to the stream. */
export function writeLine(stream: Writable, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}
