// Command-line options of the bench scripts (node:util parseArgs): --help prints the usage; an
// unknown option or a count that is not a positive whole number exits 2 with the usage.
import { parseArgs } from 'node:util';

export function benchOptions(usage, options, counts = {}) {
  const fail = (message) => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
  let values;
  try {
    ({ values } = parseArgs({ options: { help: { type: 'boolean' }, ...options } }));
  } catch (error) {
    fail(error.message);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  for (const [name, fallback] of Object.entries(counts)) {
    const n = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isInteger(n) || n < 1) fail(`--${name} takes a positive whole number, got ${values[name]}`);
    values[name] = n;
  }
  return values;
}
