import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { AUTHENTICATE_SQL } from '../../src/auth/tokens.service.js';
import {
  FIND_PLATFORM_ACCOUNT_SQL,
  INSERT_PLATFORM_ACCOUNT_SQL,
} from '../../src/external-accounts/external-accounts.service.js';
import { autocannonRun } from '../lib/http.js';
import { literal, pgbenchRun, pgbenchStatement } from '../lib/pgbench.js';
import type { Measurement, SuiteResult } from '../lib/report.js';
import { BenchContext, interleaved, Suite } from '../support.js';

/**
 * The database floor: each endpoint against `pgbench -M prepared` running, as the request-path
 * issue defines the reference, the statements the endpoint ran before that issue (the token
 * lookup, and for the POST its transaction: BEGIN, the platform's config row, the INSERT, COMMIT),
 * and beside it the strictest reference: just the statement the service now sends (its token is
 * cached; the POST's checks are in its INSERT). On the embedded engine, which pgbench cannot
 * drive, the bare app is the reference instead.
 */
async function reference(ctx: BenchContext, script: string, variables: Record<string, string>, seconds: number) {
  return pgbenchRun(ctx.app.databaseUrl, script, { clients: ctx.connections, seconds, variables });
}

/** The token lookup every authenticated request ran before the token cache. */
const tokenLookup = (ctx: BenchContext) => pgbenchStatement(AUTHENTICATE_SQL, { 1: literal(ctx.platform.clientId) });

const bare = (ctx: BenchContext) => (seconds: number) =>
  autocannonRun({ url: ctx.bareUrl, connections: ctx.connections, seconds });

export const externalAccountGet: Suite = {
  name: 'external-account-get',
  engines: ['postgres', 'embedded'],
  async run(ctx: BenchContext): Promise<SuiteResult[]> {
    const created = await fetch(`${ctx.app.baseUrl}/platform/external-accounts`, {
      method: 'POST',
      headers: { authorization: ctx.platform.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'EUR', accountInfo: exampleAccountInfo('EUR_ACCOUNT', 1) }),
    });
    const { id } = (await created.json()) as { id: string };
    const url = `${ctx.app.baseUrl}/platform/external-accounts/${id}`;
    const select = pgbenchStatement(FIND_PLATFORM_ACCOUNT_SQL, { 1: ':id', 2: ':platform' });
    const issueScript = `${tokenLookup(ctx)}\n${select}\n`;
    const variables = { id: id.slice('ExternalAccount:'.length), platform: ctx.platform.platformId };
    const get = (seconds: number) =>
      autocannonRun({ url, authorization: ctx.platform.authorization, connections: ctx.connections, seconds });
    if (ctx.app.embedded) {
      const runs = await interleaved(ctx, get, bare(ctx));
      return [{ kind: 'pair', engine: ctx.app.engine, path: GET_PATH, reference: 'bare NestJS app', ...runs }];
    }
    const runs = await interleaved(
      ctx,
      get,
      (seconds) => reference(ctx, issueScript, variables, seconds),
      (seconds) => reference(ctx, `${select}\n`, variables, seconds),
    );
    return [
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: GET_PATH,
        reference: "pgbench: the token lookup + the SELECT (the issue's reference)",
        target: 0.25,
        a: runs.a,
        b: runs.b,
      },
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: GET_PATH,
        reference: 'pgbench: the SELECT alone (what the service sends)',
        a: runs.a,
        b: runs.more[0],
      },
    ];
  },
};

const GET_PATH = '`GET /platform/external-accounts/{id}`';
const POST_PATH = '`POST /platform/external-accounts`';

export const externalAccountPost: Suite = {
  name: 'external-account-post',
  engines: ['postgres', 'embedded'],
  async run(ctx: BenchContext): Promise<SuiteResult[]> {
    const url = `${ctx.app.baseUrl}/platform/external-accounts`;
    const info = exampleAccountInfo('EUR_ACCOUNT', 2);
    // The INSERT as the endpoint sends it; the values that must be unique per row come from SQL.
    const script = pgbenchStatement(INSERT_PLATFORM_ACCOUNT_SQL, {
      1: 'gen_random_uuid()',
      2: ':platform',
      3: 'NULL',
      4: 'NULL',
      5: literal('EUR'),
      6: 'false',
      7: literal('PENDING'),
      8: literal('EUR_ACCOUNT'),
      9: literal(JSON.stringify(info)),
      10: 'md5(random()::text)',
      11: 'now()',
      12: literal('ACTIVE'),
      13: 'NULL',
      14: 'NULL',
    });
    const post = (seconds: number): Promise<Measurement> =>
      autocannonRun({
        url,
        authorization: ctx.platform.authorization,
        body: 'external-account',
        connections: ctx.connections,
        seconds,
      });
    if (ctx.app.embedded) {
      const runs = await interleaved(ctx, post, bare(ctx));
      return [{ kind: 'pair', engine: ctx.app.engine, path: POST_PATH, reference: 'bare NestJS app', ...runs }];
    }
    // Before the request-path issue: the token lookup, then BEGIN, the whole config row (for one
    // flag), the INSERT, COMMIT.
    const issueScript = [
      tokenLookup(ctx),
      'BEGIN;',
      'SELECT * FROM platform_configs WHERE platform_id = :platform;',
      script,
      'COMMIT;',
      '',
    ].join('\n');
    const variables = { platform: ctx.platform.platformId };
    const runs = await interleaved(
      ctx,
      post,
      (seconds) => reference(ctx, issueScript, variables, seconds),
      (seconds) => reference(ctx, `${script}\n`, variables, seconds),
    );
    return [
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: POST_PATH,
        reference: "pgbench: token lookup, BEGIN, config row, the INSERT, COMMIT (the issue's reference)",
        target: 0.5,
        a: runs.a,
        b: runs.b,
      },
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: POST_PATH,
        reference: 'pgbench: the INSERT alone (what the service sends)',
        a: runs.a,
        b: runs.more[0],
      },
    ];
  },
};
