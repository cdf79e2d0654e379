// Per-key serialisation: writes to one site (or the account) run one after another, so a
// handler that awaits between reading and writing state cannot lose an update or break a limit.
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /**
   * Runs `fn` once the writes queued before it on `key` are done. A synchronous `fn` with nothing
   * queued runs at once and its value is returned as is (nothing can interleave with synchronous
   * code); an asynchronous one holds the key until it settles. `fn` gets `arg` (so that callers
   * need no closure per call).
   */
  run<A, T>(key: string, fn: (arg: A) => T | Promise<T>, arg: A): T | Promise<T> {
    if (!this.tails.has(key)) {
      const out = fn(arg);
      if (!(out instanceof Promise)) return out;
      const tail = out.then(noop, noop);
      this.tails.set(key, tail);
      void tail.then(() => {
        if (this.tails.get(key) === tail) this.tails.delete(key);
      });
      return out;
    }
    return this.queue(key, () => fn(arg));
  }

  private async queue<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      // Drop the entry once nobody queued behind us, so the map does not grow.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

const noop = () => undefined;
