// The stdio transport: one JSON-RPC message per line, as the SDK's, but following JSON-RPC 2.0 on
// bad input where the SDK's stays silent: a line that is not JSON gets -32700 (Parse error), one
// that is not a JSON-RPC message -32600 (Invalid Request), both with id null, and the session goes
// on. A line over the size cap gets -32600 too (the SDK's transport closes and the process exits 0
// without a word); its bytes are skipped up to the next newline, never held.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** Largest message read: 10 MiB, as the SDK's default. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

type Input = NodeJS.ReadableStream;
type Output = NodeJS.WritableStream;

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #in: Input;
  readonly #out: Output;
  readonly #max: number;
  readonly #log: (line: string) => void;
  #chunks: Buffer[] = [];
  #size = 0;
  /** Inside a line that passed the cap: bytes are dropped until its newline. */
  #skipping = false;

  constructor(
    options: { stdin?: Input; stdout?: Output; maxMessageBytes?: number; log?: (line: string) => void } = {},
  ) {
    this.#in = options.stdin ?? process.stdin;
    this.#out = options.stdout ?? process.stdout;
    this.#max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  readonly #onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const nl = data.indexOf(0x0a);
      const part = nl === -1 ? data : data.subarray(0, nl);
      if (!this.#skipping) {
        if (this.#size + part.length > this.#max) {
          this.#skipping = true;
          this.#chunks = [];
          this.#size = 0;
        } else {
          this.#chunks.push(part);
          this.#size += part.length;
        }
      }
      if (nl === -1) return;
      if (this.#skipping) {
        this.#skipping = false;
        this.#log(`hosting-api-mcp: a message over ${this.#max} bytes was refused`);
        void this.#error(-32600, `Invalid Request: the message is larger than ${this.#max} bytes`);
      } else this.#line(Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, ''));
      this.#chunks = [];
      this.#size = 0;
      data = data.subarray(nl + 1);
    }
  };

  readonly #onEnd = () => {
    void this.close();
  };

  #line(line: string) {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      void this.#error(-32700, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      void this.#error(-32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  #error(code: number, message: string) {
    return this.#write({ jsonrpc: '2.0', id: null, error: { code, message } });
  }

  #write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.#out.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#out.once('drain', resolve);
    });
  }

  async start(): Promise<void> {
    this.#in.on('data', this.#onData);
    this.#in.on('end', this.#onEnd);
    this.#in.on('error', (error: Error) => this.onerror?.(error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  async close(): Promise<void> {
    this.#in.off('data', this.#onData);
    this.#in.off('end', this.#onEnd);
    this.#chunks = [];
    this.onclose?.();
  }
}
