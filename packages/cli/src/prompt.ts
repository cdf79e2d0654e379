// Reading answers from the terminal (or from piped stdin, a line each): the secret is read with
// echo off on a terminal and is never written anywhere.
import type { Io } from './io';

/** Reads lines from one stream across calls, keeping what arrived after the last line. */
export class LineReader {
  #buffer = '';
  #ended = false;
  #waiting: (() => void) | undefined;
  readonly #stream: Io['stdin'];
  #attached = false;

  constructor(stream: Io['stdin']) {
    this.#stream = stream;
  }

  readonly #onData = (chunk: Buffer | string) => {
    this.#buffer += chunk.toString();
    this.#waiting?.();
  };
  readonly #onEnd = () => {
    this.#ended = true;
    this.#waiting?.();
  };

  #attach() {
    if (this.#attached) return;
    this.#attached = true;
    this.#stream.on('data', this.#onData);
    this.#stream.on('end', this.#onEnd);
  }

  /** Stops listening (before the terminal is read another way, such as the hidden secret). */
  close(): void {
    this.#stream.off('data', this.#onData);
    this.#stream.off('end', this.#onEnd);
    this.#attached = false;
  }

  async line(): Promise<string | undefined> {
    this.#attach();
    this.#stream.resume();
    try {
      for (;;) {
        const end = this.#buffer.indexOf('\n');
        if (end !== -1) {
          const line = this.#buffer.slice(0, end).replace(/\r$/, '');
          this.#buffer = this.#buffer.slice(end + 1);
          return line;
        }
        if (this.#ended) {
          const rest = this.#buffer;
          this.#buffer = '';
          return rest.length ? rest : undefined;
        }
        await new Promise<void>((resolve) => {
          this.#waiting = resolve;
        });
        this.#waiting = undefined;
      }
    } finally {
      this.#stream.pause();
    }
  }
}

/** Reads a secret from a terminal with echo off: nothing typed is shown. Enter ends it, Ctrl-C aborts. */
export function readHidden(stdin: Io['stdin'], stderr: Io['stderr']): Promise<string | undefined> {
  return new Promise((resolve) => {
    let secret = '';
    stdin.setRawMode?.(true);
    stdin.resume();
    const done = (value: string | undefined) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done(secret);
        if (ch === '\u0003') return done(undefined);
        if (ch === '\u007f' || ch === '\b') secret = secret.slice(0, -1);
        else secret += ch;
      }
    };
    stdin.on('data', onData);
  });
}
