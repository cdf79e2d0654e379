#!/usr/bin/env node
// Benchmark: the response check's cost on a wrong answer from a target (issue 40): lists of `{}`
// of 60 KB (target: checked in under 2 s) and of 8 MiB (the gate's answer cap), with the gate's
// check (it stops at the first error) and, with --all-errors, the 60 KB one with allErrors (about
// 100 s: its cost grows with the square of the list). Most of the 8 MiB figure is JSON.parse.
import { createCheck } from '@hosting-api/openapi/check';
import { loadModel } from '@hosting-api/openapi/model';

const model = await loadModel();
const headers = { 'content-type': 'application/json' };
const listOf = (bytes) =>
  JSON.stringify({ message: 'Success', data: Array(Math.floor(bytes / 3)).fill({}), errors: null });
const time = (check, body) => {
  const t0 = performance.now();
  const problems = check.response('listSites', 200, headers, body);
  return `${(performance.now() - t0).toFixed(1)} ms, ${problems.length} problem(s)`;
};
const gate = createCheck(model);
time(gate, listOf(3)); // compiles the validator (a few hundred ms, once per run)
console.log(`60 KB list of {}, first error:    ${time(gate, listOf(60_000))}   (target < 2000 ms)`);
console.log(`8 MiB list of {}, first error:    ${time(gate, listOf(8 * 1024 * 1024))}`);
if (process.argv.includes('--all-errors')) {
  const all = createCheck(model, { allErrors: true });
  time(all, listOf(3));
  console.log(`60 KB list of {}, allErrors:      ${time(all, listOf(60_000))}`);
}
