// The command-line side shared by the contract runners (run.mjs, workflows.mjs): option parsing,
// usage errors (exit 2 with the help), and the variables a live target needs.
import { parseArgs } from 'node:util';

const LIVE_VARS = {
  CONTRACT_BASE_URL: 'the API base URL, ending in /v1 (e.g. https://api.example.com/v1)',
  CONTRACT_AUTH_URL: 'the root URL that serves POST /auth/token (e.g. https://auth.example.com)',
  CONTRACT_CLIENT_ID: "the API application's client id",
  CONTRACT_CLIENT_SECRET: "the API application's client secret",
};

/** Parses the command line (node:util parseArgs, plus -h/--help); `usage(message)` exits 2 with the help. */
export function parseCommandLine(name, help, options) {
  const usage = (message) => {
    process.stderr.write(`${name}: ${message}\n\n${help}\n`);
    process.exit(2);
  };
  let values;
  try {
    ({ values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h', default: false } } }));
  } catch (error) {
    usage(error.message);
  }
  if (values.help) {
    process.stdout.write(`${help}\n`);
    process.exit(0);
  }
  return { values, usage };
}

/** Exits 2 naming each live-target variable that is not set (`command` and `writes` say who and what). */
export function requireLiveVars(command, writes) {
  const missing = Object.keys(LIVE_VARS).filter((name) => !process.env[name]);
  if (missing.length === 0) return;
  const lines = missing.map((name) => `  ${name}  ${LIVE_VARS[name]}\n`).join('');
  process.stderr.write(`${command} needs these environment variables, which are not set:\n${lines}${writes}\n`);
  process.exit(2);
}
