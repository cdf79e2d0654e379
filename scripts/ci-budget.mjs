#!/usr/bin/env node
// Prints the wall time of each turbo task of the last `pnpm test` run (from turbo's run summary,
// .turbo/runs/*.json, written because the test script passes --summarize) and fails when a task,
// or the whole CI run, went over its budget in scripts/ci-budget.json. Tasks run side by side, so a
// task's wall time moves with what shares the machine: its budget leaves room for that, and an
// overrun names the task to look at first.
//
// Budgets are seconds on the machine they were measured on. CI machines of the same kind differ
// in speed (the same tree took 104 s on one and 244 s on another), so `--calibration` scales them:
// `--calibrate` times a fixed workload (Node starts loading TypeScript, and pure JS work), and the
// budgets grow or shrink by its ratio to the workload's time on the budgets' machine.
// Usage: ci-budget.mjs [--since EPOCH_SECONDS] [--calibration SECONDS] [--budgets FILE] [--summary FILE]
//        ci-budget.mjs --calibrate      (prints the workload's seconds)
//   --since: when CI started (before the install), so the whole run is measured against `total`.
// Exit 1 when a task or the whole CI run is over budget, 2 on a usage error (no run summary, say).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');

/**
 * Seconds of a fixed workload like CI's own: a Node process that loads a large module
 * (TypeScript), and JSON and hashing work in this one; each timed five times and the fastest
 * taken (other work only adds time), then weighted 3:3 into one figure of about 2 s.
 */
export function calibrate() {
  const typescript = createRequire(join(root, 'package.json')).resolve('typescript');
  const rows = Array.from({ length: 5000 }, (_, i) => ({
    id: i,
    name: `site-${i}`,
    tags: ['a', 'b'],
    ok: i % 3 === 0,
  }));
  const fastest = (work) => {
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      work();
      best = Math.min(best, performance.now() - started);
    }
    return best / 1000;
  };
  const load = fastest(() => spawnSync(process.execPath, ['-e', `require(${JSON.stringify(typescript)})`]));
  const compute = fastest(() => {
    for (let i = 0; i < 10; i++)
      createHash('sha256')
        .update(JSON.stringify(JSON.parse(JSON.stringify(rows))))
        .digest();
  });
  return 3 * load + 3 * compute;
}

/** Task wall times (seconds) of a turbo run summary, slowest first. */
export function taskTimes(summary) {
  return summary.tasks
    .map((t) => ({
      task: t.taskId,
      seconds: (t.execution.endTime - t.execution.startTime) / 1000,
      cached: t.cache?.status === 'HIT',
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

export const TOTAL = 'CI run, install included (wall)';

/**
 * Lines of the report, whether every task and the whole run kept their budgets, and what went
 * over (tasks by name, the whole run as TOTAL). With a
 * calibration (seconds of calibrate() on this machine), budgets scale by its ratio to
 * budgets.calibration, the workload's seconds on the machine the budgets were measured on.
 */
export function check(summary, rawBudgets, totalSeconds, calibration) {
  const scale = calibration && rawBudgets.calibration ? calibration / rawBudgets.calibration : 1;
  const scaled = (s) => Math.round(s * scale);
  const budgets = {
    total: scaled(rawBudgets.total),
    defaultTask: scaled(rawBudgets.defaultTask),
    tasks: Object.fromEntries(Object.entries(rawBudgets.tasks).map(([k, v]) => [k, scaled(v)])),
  };
  const lines = [];
  if (scale !== 1)
    lines.push(
      `budgets × ${scale.toFixed(2)}: the calibration workload took ${calibration.toFixed(2)} s here, ${rawBudgets.calibration} s on the budgets' machine`,
    );
  lines.push('task                                           wall   budget');
  const over = [];
  const row = (name, seconds, budget, note = '') => {
    const isOver = budget !== undefined && seconds > budget;
    if (isOver) over.push(name);
    lines.push(
      `${name.padEnd(45)} ${seconds.toFixed(1).padStart(6)} s ${budget === undefined ? '     —' : `${String(budget).padStart(6)} s`}${isOver ? '  OVER BUDGET' : ''}${note}`,
    );
  };
  for (const t of taskTimes(summary))
    row(t.task, t.seconds, budgets.tasks[t.task] ?? budgets.defaultTask, t.cached ? '  (cached)' : '');
  const turboSeconds = (summary.execution.endTime - summary.execution.startTime) / 1000;
  row('turbo run (wall)', turboSeconds, undefined);
  if (totalSeconds !== undefined) row(TOTAL, totalSeconds, budgets.total);
  return { ok: over.length === 0, lines, over };
}

function newestSummary() {
  const dir = join(root, '.turbo/runs');
  let files = [];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(dir, f));
  } catch {}
  if (!files.length) return undefined;
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

if (process.argv[1] === import.meta.filename) {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        since: { type: 'string' },
        calibration: { type: 'string' },
        calibrate: { type: 'boolean' },
        budgets: { type: 'string' },
        summary: { type: 'string' },
      },
    }));
  } catch (error) {
    console.error(`ci-budget: ${error.message}`);
    process.exit(2);
  }
  if (values.calibrate) {
    console.log(calibrate().toFixed(3));
    process.exit(0);
  }
  const calibration = values.calibration === undefined ? undefined : Number(values.calibration);
  if (calibration !== undefined && !(calibration > 0)) {
    console.error(`ci-budget: --calibration takes the seconds that --calibrate printed, got "${values.calibration}"`);
    process.exit(2);
  }
  const summaryFile = values.summary ?? newestSummary();
  if (!summaryFile) {
    console.error('ci-budget: no turbo run summary in .turbo/runs: run `pnpm test` (it passes --summarize) first.');
    process.exit(2);
  }
  const readJson = (file, what) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      console.error(`ci-budget: cannot read the ${what} ${file}: ${error.message}`);
      process.exit(2);
    }
  };
  const budgets = readJson(values.budgets ?? join(root, 'scripts/ci-budget.json'), 'budgets');
  const since = values.since === undefined ? undefined : Number(values.since);
  if (since !== undefined && !Number.isFinite(since)) {
    console.error(`ci-budget: --since takes epoch seconds, got "${values.since}"`);
    process.exit(2);
  }
  const result = check(
    readJson(summaryFile, 'turbo run summary'),
    budgets,
    since === undefined ? undefined : Date.now() / 1000 - since,
    calibration,
  );
  console.log(result.lines.join('\n'));
  const tasksOver = result.over.filter((name) => name !== TOTAL);
  if (tasksOver.length)
    console.log(`ci-budget: ${tasksOver.length} task(s) over their budget: ${tasksOver.join(', ')}.`);
  if (result.over.includes(TOTAL)) console.log('ci-budget: the whole CI run is over its budget.');
  if (!result.ok)
    console.log(
      'ci-budget: over budget (scripts/ci-budget.json): a change that adds cost pays for it; raise a budget only with the reason in the commit.',
    );
  process.exit(result.ok ? 0 : 1);
}
