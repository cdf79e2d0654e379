// Per-key serialisation: writes to one site (or the account) run one after another, so a
// handler that awaits between reading and writing state cannot lose an update or break a limit.
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
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
