// Every vitest run gets a TMPDIR of its own, removed when the run ends: the scratch folders of the
// tests and of the processes they start (one killed mid-run included) do not pile up in the
// machine's temporary folder. KEEP_TEST_TMPDIR=1 keeps it and prints where it is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'hosting-api-tests-'));
  // Read by os.tmpdir() in this process, the test workers and every process they start.
  process.env.TMPDIR = dir;
  return () => {
    if (process.env.KEEP_TEST_TMPDIR) console.log(`KEEP_TEST_TMPDIR: this run's temporary files are in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
}
