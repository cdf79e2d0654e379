// The CLI run in-process for the tests: what it printed, and its exit code.
import { Readable } from 'node:stream';
import { run } from '../src/index';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** One in-process run; `onErr` sees stderr as it is written. */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; stdin?: string; onErr?: (text: string) => void } = {},
): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await run(args, {
    stdout: { write: (s: string) => (out += s) },
    stderr: {
      write: (s: string) => {
        err += s;
        options.onErr?.(err);
      },
    },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    env: options.env ?? {},
  });
  return { code, out, err };
}
