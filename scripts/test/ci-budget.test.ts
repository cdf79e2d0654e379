// scripts/ci-budget.mjs: task times from a turbo run summary, checked against budgets.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, TOTAL, taskTimes } from '../ci-budget.mjs';

const task = (taskId: string, start: number, seconds: number, cache = 'MISS') => ({
  taskId,
  cache: { status: cache },
  execution: { startTime: start, endTime: start + seconds * 1000 },
});
const summary = {
  execution: { startTime: 0, endTime: 50_000 },
  tasks: [task('a#build', 0, 4), task('a#test', 4000, 40), task('b#test', 4000, 12, 'HIT')],
};
const budgets = { total: 120, defaultTask: 15, tasks: { 'a#test': 45 } };

describe('ci-budget', () => {
  it('lists every task, slowest first, with cached ones marked', () => {
    expect(taskTimes(summary).map((t) => [t.task, t.seconds, t.cached])).toEqual([
      ['a#test', 40, false],
      ['b#test', 12, true],
      ['a#build', 4, false],
    ]);
  });

  it('passes when every task and the total keep their budgets', () => {
    const r = check(summary, budgets, 100);
    expect(r.ok).toBe(true);
    expect(r.lines.join('\n')).not.toContain('OVER BUDGET');
  });

  it('fails a task over its own budget, one over the default, and a total over its budget', () => {
    const own = check(summary, { ...budgets, tasks: { 'a#test': 30 } }, 100);
    expect(own.lines.join('\n')).toMatch(/a#test +40\.0 s +30 s {2}OVER BUDGET/);
    expect(own).toMatchObject({ ok: false, over: ['a#test'] });
    const byDefault = check(summary, { ...budgets, defaultTask: 10 }, 100);
    expect(byDefault.lines.join('\n')).toMatch(/b#test .*OVER BUDGET/);
    expect(byDefault).toMatchObject({ ok: false, over: ['b#test'] });
    const total = check(summary, budgets, 130);
    expect(total).toMatchObject({ ok: false, over: [TOTAL] });
    expect(total.lines.at(-1)).toMatch(/CI run, install included .*130\.0 s +120 s {2}OVER BUDGET/);
  });

  it('scales every budget by the calibration against the budgets machine, both ways', () => {
    const withRef = { ...budgets, calibration: 2 };
    const slower = check(summary, { ...withRef, tasks: { 'a#test': 30 } }, 200, 3);
    expect(slower.lines[0]).toMatch(
      /^budgets × 1\.50: the calibration workload took 3\.00 s here, 2 s on the budgets' machine/,
    );
    expect(slower).toMatchObject({ ok: false, over: [TOTAL] }); // a#test: 40 s within 45; the run: 200 s over 180
    expect(slower.lines.join('\n')).toMatch(/CI run, install included .*200\.0 s +180 s {2}OVER BUDGET/);
    const faster = check(summary, withRef, 100, 1);
    expect(faster).toMatchObject({ ok: false, over: ['a#test', 'b#test', TOTAL] }); // 40 s over 23 s, 12 s over 8 s, 100 s over 60 s
    expect(check(summary, budgets, 100, 3).lines[0]).toMatch(/^task/); // no reference: unscaled
  });

  // (.ci/run calibrates on every run, so --calibrate itself is not run again here.)
  it('refuses a calibration that is not a number of seconds', () => {
    const script = join(import.meta.dirname, '../ci-budget.mjs');
    const bad = spawnSync(process.execPath, [script, '--calibration', 'fast'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^ci-budget: --calibration takes the seconds that --calibrate printed/);
  });

  it('exits 1 when a task or the whole run is over budget, 0 within, 2 without a summary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-budget-'));
    const file = join(dir, 'summary.json');
    const tight = join(dir, 'budgets.json');
    const fitting = join(dir, 'fitting.json');
    writeFileSync(file, JSON.stringify(summary));
    writeFileSync(fitting, JSON.stringify(budgets));
    writeFileSync(tight, JSON.stringify({ ...budgets, defaultTask: 5 }));
    const script = join(import.meta.dirname, '../ci-budget.mjs');
    const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
    expect(run('--summary', file, '--budgets', fitting).status).toBe(0);
    const tasksOver = run('--summary', file, '--budgets', tight);
    expect(tasksOver.status).toBe(1);
    expect(tasksOver.stdout).toContain('ci-budget: 1 task(s) over their budget: b#test.');
    const longAgo = String(Math.floor(Date.now() / 1000) - 200);
    const over = run('--summary', file, '--budgets', fitting, '--since', longAgo);
    expect(over.status).toBe(1);
    expect(over.stdout).toContain('the whole CI run is over its budget');
    expect(over.stdout).not.toContain('task(s) over');
    const missing = run('--summary', join(dir, 'nope.json'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^ci-budget: cannot read the turbo run summary .*nope\.json/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    expect(run('--since', 'soon', '--summary', file).status).toBe(2);
  });
});
