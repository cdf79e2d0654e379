// Virtual clock with scheduled tasks. "Completes later" work (deploys, clones, backups) is a task
// due at a virtual time. Virtual time runs at `speed` × real time (0 = frozen: only `advance`
// moves it, which is what tests use). Due tasks run before every request and, when speed > 0,
// from a real timer as well.

export interface ScheduledTask {
  id: number;
  due: number;
  label: string;
  run: () => void;
}

export class Clock {
  private offset = 0;
  private readonly realStart = performance.now();
  private tasks: ScheduledTask[] = [];
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly start: number,
    readonly speed: number,
    private readonly onTaskError: (label: string, error: unknown) => void = () => {},
  ) {}

  /** Virtual now, epoch milliseconds. */
  now(): number {
    return this.start + this.offset + (performance.now() - this.realStart) * this.speed;
  }
  nowIso(): string {
    // Formatting a date costs more than the rest of a small request: reuse the last text while
    // the virtual millisecond is the same (always, with a frozen clock).
    const ms = Math.floor(this.now());
    if (ms !== this.isoMs) {
      this.isoMs = ms;
      this.iso = new Date(ms).toISOString();
    }
    return this.iso;
  }
  private isoMs = Number.NaN;
  private iso = '';
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Moves virtual time forward and runs every task that falls due. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('advance needs a non-negative number of milliseconds');
    this.offset += ms;
    this.runDue();
  }

  schedule(delayMs: number, label: string, run: () => void): ScheduledTask {
    const task = { id: this.nextId++, due: this.now() + Math.max(0, delayMs), label, run };
    this.tasks.push(task);
    this.tasks.sort((a, b) => a.due - b.due || a.id - b.id);
    this.arm();
    return task;
  }

  cancel(taskId: number): void {
    this.tasks = this.tasks.filter((t) => t.id !== taskId);
  }

  pending(): readonly ScheduledTask[] {
    return this.tasks;
  }

  /** Runs due tasks in due order; tasks scheduled by tasks run too if they are due. */
  runDue(): void {
    // Runs before every request: with nothing queued there is nothing to do (and no timer to arm).
    if (this.running || this.tasks.length === 0) return;
    this.running = true;
    try {
      for (;;) {
        const next = this.tasks[0];
        if (!next || next.due > this.now()) break;
        this.tasks.shift();
        try {
          next.run();
        } catch (error) {
          this.onTaskError(next.label, error);
        }
      }
    } finally {
      this.running = false;
    }
    this.arm();
  }

  clearTasks(): void {
    this.tasks = [];
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.stop();
    const next = this.tasks[0];
    if (!next || this.speed <= 0) return;
    const realDelay = Math.min(2 ** 31 - 1, Math.max(0, (next.due - this.now()) / this.speed));
    this.timer = setTimeout(() => this.runDue(), realDelay);
    this.timer.unref();
  }
}
