import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import {
  FIND_PLATFORM_ACCOUNT_SQL,
  INSERT_PLATFORM_ACCOUNT_SQL,
} from '../../src/external-accounts/external-accounts.service.js';
import { autocannonRun } from '../lib/http.js';
import { literal, pgbenchRun, pgbenchStatement } from '../lib/pgbench.js';
import type { Measurement, SuiteResult } from '../lib/report.js';
import { BenchContext, interleaved, Suite } from '../support.js';

/**
 * The database floor: each endpoint against `pgbench -M prepared` running the endpoint's own SQL
 * (the token lookup is cached, so a request runs just that statement). On the embedded engine,
 * which pgbench cannot drive, the bare app is the reference instead.
 */
async function reference(ctx: BenchContext, script: string, variables: Record<string, string>, seconds: number) {
  return pgbenchRun(ctx.app.databaseUrl, script, { clients: ctx.connections, seconds, variables });
}

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
    const script = pgbenchStatement(FIND_PLATFORM_ACCOUNT_SQL, { 1: ':id', 2: ':platform' });
    const variables = { id: id.slice('ExternalAccount:'.length), platform: ctx.platform.platformId };
    const runs = await interleaved(
      ctx,
      (seconds) =>
        autocannonRun({ url, authorization: ctx.platform.authorization, connections: ctx.connections, seconds }),
      ctx.app.embedded ? bare(ctx) : (seconds) => reference(ctx, script, variables, seconds),
    );
    return [
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: '`GET /platform/external-accounts/{id}`',
        reference: ctx.app.embedded ? 'bare NestJS app' : 'pgbench: the same SELECT',
        ...(ctx.app.embedded ? {} : { target: 0.25 }),
        ...runs,
      },
    ];
  },
};

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
    });
    const post = (seconds: number): Promise<Measurement> =>
      autocannonRun({
        url,
        authorization: ctx.platform.authorization,
        body: 'external-account',
        connections: ctx.connections,
        seconds,
      });
    const runs = await interleaved(
      ctx,
      post,
      ctx.app.embedded
        ? bare(ctx)
        : (seconds) => reference(ctx, script, { platform: ctx.platform.platformId }, seconds),
    );
    return [
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: '`POST /platform/external-accounts`',
        reference: ctx.app.embedded ? 'bare NestJS app' : 'pgbench: the same INSERT',
        ...(ctx.app.embedded ? {} : { target: 0.5 }),
        ...runs,
      },
    ];
  },
};
