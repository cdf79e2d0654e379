// Dredd hooks for the contract gate. Dredd sends one request per documented response (its
// "transactions") and checks the status code and Content-Type; these hooks
//   - get a token from the target's token operation and authorise every request but the 401 ones,
//   - send the token operations to the auth URL (they live outside /v1),
//   - fill path parameters and bodies from the spec's examples or from the target data file,
//   - against the mock, ask Prism for the documented non-2xx response with `Prefer: code=…`,
//   - against a live target, skip writes unless CONTRACT_ALLOW_WRITES=1 and skip error
//     responses that cannot be provoked without knowing the target's state,
//   - validate every response body against the OpenAPI 3.1 schema with JSON Schema 2020-12 (Ajv),
//     replacing Dredd's own body check, which compares only the keys of the first example.
// The files, one concern each: hooks-config.ts (the environment), hooks-spec.ts (the spec model,
// tokens, what the run learns), hooks-build.ts (each request), hooks-check.ts (each answer),
// hooks-plan.ts (the live plan), hooks-request.ts, hooks-download.ts. This file registers them.

import { writeFileSync } from 'node:fs';
import hooks from 'hooks';
import { beforeEach } from './hooks-build';
import { beforeValidation, checkAnswer, expiredTokenProbe, results } from './hooks-check';
import { ALLOW_WRITES, BASE_URL, data, MODE, ONLY, PLANNED, PROBES, REQUEST_TIMEOUT } from './hooks-config';
import { createHooksPlan, resultOf } from './hooks-plan';
import { loadSpec, lookup, obtainToken, revokeToken, session, specModel } from './hooks-spec';
import type { Done, Transaction } from './hooks-types';
import { shown } from './redact';

const env = process.env;

hooks.beforeAll((transactions: Transaction[], done: Done) => {
  loadSpec()
    .then(
      () => obtainToken(),
      (error) => {
        // Without the spec no transaction can be built or checked: stop the run with the reason.
        console.error(`contract: cannot load the spec model of ${env.CONTRACT_SPEC_JSON}: ${error.message}`);
        process.exit(1);
      },
    )
    .then(
      async (value) => {
        session.token = value;
        if (PROBES && transactions.some((t) => String(t.expected.statusCode) === '401')) {
          try {
            const doomed = await obtainToken();
            await revokeToken(doomed);
            session.revoked = doomed;
          } catch (error) {
            session.revokedError = `could not obtain and revoke a token for the revoked-token probe: ${(error as Error).message}`;
          }
        }
        if (PLANNED) {
          session.planHooks = createHooksPlan({
            model: specModel,
            token: () => session.token,
            baseUrl: BASE_URL,
            timeout: REQUEST_TIMEOUT,
            allowWrites: ALLOW_WRITES,
            lookup,
          });
          session.plan = session.planHooks.plan;
        }
        if (session.planHooks)
          await session.planHooks.start(transactions).catch((error) => {
            console.error(`contract: the live plan failed: ${error.message}`);
          });
        done();
      },
      (error) => {
        session.tokenError = error.message;
        console.error(`contract: ${session.tokenError}`);
        done();
      },
    );
});

// The run's token is renewed when it gets old (cli.ts TOKEN_REFRESH_MS): a target's tokens may
// expire during a long run (the sandbox's hour is a minute at --speed 60).
hooks.beforeEach((transaction: Transaction, done: Done) => {
  if (!session.token || Date.now() - session.tokenAt < Number(env.CONTRACT_TOKEN_REFRESH_MS || 20_000))
    return beforeEach(transaction, done);
  obtainToken().then(
    (value) => {
      session.token = value;
      session.tokenAt = Date.now();
      beforeEach(transaction, done);
    },
    () => beforeEach(transaction, done),
  );
});

hooks.beforeEachValidation(beforeValidation);

hooks.afterEach((transaction: Transaction, done: Done) => {
  checkAnswer(transaction).then(done, (error: Error) => {
    results.push({
      key: transaction.contract?.key ?? transaction.name,
      name: transaction.name,
      outcome: 'fail',
      errors: [`gate error: ${error.message}`],
    });
    done();
  });
});

hooks.afterAll((_transactions: Transaction[], done: Done) => {
  const { planHooks } = session;
  const planned = planHooks
    ? planHooks.finish().catch((error: Error) =>
        planHooks.results.push({
          key: 'state diff',
          name: 'state diff: resources that existed before the run are unchanged',
          outcome: 'fail',
          errors: [`could not run: ${error.message}`],
          failures: [{ check: 'state_unchanged', message: `could not run: ${error.message}` }],
        }),
      )
    : Promise.resolve();
  const probe = planned.then(() =>
    PROBES && data.expire && (!ONLY.length || ONLY.some((o) => o.split(' ')[0] === 'getAccount'))
      ? expiredTokenProbe()
      : null,
  );
  probe
    .then(
      (problems) => {
        if (problems)
          results.push({
            key: 'getAccount 401',
            name: 'auth probe: expired token',
            operationId: 'getAccount',
            status: '401',
            ...resultOf(problems, 'ignored_auth'),
          });
      },
      (error) =>
        results.push({
          key: 'getAccount 401',
          name: 'auth probe: expired token',
          operationId: 'getAccount',
          status: '401',
          outcome: 'fail',
          errors: [`could not run: ${error.message}`],
          failures: [{ check: 'ignored_auth', message: `could not run: ${error.message}` }],
        }),
    )
    .finally(() => {
      results.push(...(planHooks?.results ?? []));
      if (env.CONTRACT_RESULTS)
        writeFileSync(env.CONTRACT_RESULTS, JSON.stringify(shown({ mode: MODE, results }), null, 1));
      done();
    });
});
