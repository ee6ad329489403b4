import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppModule } from './app.module.js';
import { loadConfig } from './config/app-config.js';
import { checkKeyEncryptionKeyConfig, keyConfigWarnings } from './secrets/key-encryption-key.js';
import { SealedColumns } from './secrets/sealed-columns.js';
import { SecretBox } from './secrets/secret-box.js';
import { describeStartupError } from './common/startup-error.js';
import { migrate, openDatabase } from './database/open-database.js';
import { createRootLogger, PinoNestLogger } from './logging/logger.js';
import { PlatformsService } from './platforms/platforms.service.js';
import { once } from 'node:events';
import { DataSource } from 'typeorm';
import { exportEvents, verifyChains } from './audit/audit-chain.js';
import { AuditTrail } from './audit/audit-trail.js';
import { parseId } from './common/ids.js';
import { dataSourceOptions } from './database/data-source.js';
import { TransactionService } from './database/transaction.service.js';
import { verifyLedger } from './ledger/ledger-verify.js';
import { StablecoinsService } from './stablecoins/stablecoins.service.js';
import { OPERATOR_GRID_STATUSES, type OperatorGridStatus } from './stablecoins/stablecoin.types.js';
import { ApiError } from './errors/api-error.js';
import { RailOverdue } from './payments/transactions/rail-overdue.service.js';
import { UmaReconciliationService } from './uma/uma-reconciliation.service.js';
import {
  applyDistribution,
  citusAvailable,
  DistributionStepError,
  distributionScript,
  formatScript,
  loadDistributionMap,
  readCatalog,
  type Catalog,
} from './database/distribution.js';
import pg from 'pg';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const DISTRIBUTION_USAGE = `  npm run --silent cli -- distribution [--apply]        the Citus distribution script generated from the map
                                                        (src/database/distribution.json), SQL on stdout, in the
                                                        database's foreign-key order; --apply runs it on a Citus
                                                        coordinator (exit 3, nothing changed, without citus)`;

const USAGE = `Usage:
  npm run --silent cli -- platform:create --name NAME   create a platform and its admin token (JSON on stdout)
  npm run --silent cli -- migrate                       apply pending migrations
  npm run --silent cli -- audit:verify [--platform ID]  walk the audit hash chains; names the first broken link (exit 3)
  npm run --silent cli -- audit:export --since ISO      audit events created since then, as JSON lines
  npm run --silent cli -- ledger:verify [--platform ID] check the double-entry ledger; names the first violation (exit 3)
  npm run --silent cli -- stablecoin:enablement --stablecoin ID --status ENABLING|ENABLED|DISABLED
                                                        the operator moves a stablecoin's Grid enablement (audited)
  npm run --silent cli -- settlements:list [--platform ID]   unresolved UMA settlements and overdue rail transactions
  npm run --silent cli -- settlements:retry --platform ID --transaction ID   ask the receiver again now
  npm run --silent cli -- settlements:resolve --platform ID --transaction ID --action REFUND|COMPLETE --reason TEXT
  npm run --silent cli -- keys:status                   how many secrets at rest each key-encryption key seals
  npm run --silent cli -- keys:rotate [--batch-size N]  re-seal every secret under the ring's first key (resumable)
${DISTRIBUTION_USAGE}`;

/**
 * `settlements:*`: what needs an operator (unresolved UMA settlements, overdue rail transactions)
 * and the actions on a settlement, as the console's Needs attention page offers them; each action
 * is recorded in the audit trail (actor `system`) with its change.
 */
async function settlements(
  command: 'settlements:list' | 'settlements:retry' | 'settlements:resolve',
  rest: string[],
  config: ReturnType<typeof loadConfig>,
  logger: ReturnType<typeof createRootLogger>,
): Promise<number> {
  const { values } = parseArgs({
    args: rest,
    options: {
      platform: { type: 'string' },
      transaction: { type: 'string' },
      action: { type: 'string' },
      reason: { type: 'string' },
    },
  });
  const platformUuid = values.platform === undefined ? null : parseId('Platform', values.platform);
  const fail = (message: string) => {
    process.stderr.write(`${message}\n${USAGE}\n`);
    return 2;
  };
  if (values.platform !== undefined && !platformUuid) return fail('--platform must be a Platform:<uuid>');
  if (command !== 'settlements:list') {
    if (!platformUuid) return fail('--platform is required');
    if (!values.transaction || !parseId('Transaction', values.transaction)) {
      return fail('--transaction must be a Transaction:<uuid>');
    }
  }
  const action = values.action?.toUpperCase();
  const reason = values.reason?.trim() ?? '';
  if (command === 'settlements:resolve') {
    if (action !== 'REFUND' && action !== 'COMPLETE') return fail('--action must be REFUND or COMPLETE');
    if (reason.length < 3 || reason.length > 500) return fail('--reason is required (3 to 500 characters)');
  }
  checkKeyEncryptionKeyConfig(config);
  const db = await openDatabase(config);
  try {
    const context = await NestFactory.createApplicationContext(
      AppModule.forRoot(config, db.url, { runWorker: false }),
      { logger: new PinoNestLogger(logger) },
    );
    try {
      const reconciliation = context.get(UmaReconciliationService);
      let result: unknown;
      if (command === 'settlements:list') {
        result = {
          settlements: await reconciliation.unresolved(platformUuid),
          railTransactions: await context.get(RailOverdue).list(platformUuid),
        };
      } else if (command === 'settlements:retry') {
        await context.get(TransactionService).run(async (m) => {
          await reconciliation.retryNow(platformUuid!, values.transaction!);
          await context.get(AuditTrail).recordSystem(m, platformUuid, 'cli:settlements:retry', [values.transaction!]);
        });
        result = { transactionId: values.transaction, status: 'PENDING' };
      } else {
        result = await reconciliation.resolveByOperator(
          platformUuid!,
          values.transaction!,
          action as 'REFUND' | 'COMPLETE',
          reason,
          'cli:settlements:resolve',
        );
      }
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof ApiError) {
        process.stderr.write(`${command}: ${error.code}: ${error.message}\n`);
        return 3;
      }
      throw error;
    } finally {
      await context.close();
    }
  } finally {
    await db.stop();
  }
}

/**
 * `distribution`: the Citus distribution script generated from the map (src/database/distribution.json),
 * in the foreign-key order of the database's catalog (the map's order when no database answers).
 * `--apply` runs it statement by statement when the server has the `citus` extension; otherwise
 * prints it and exits 3 without changing anything. docs/scale-out.md.
 */
async function distribution(rest: string[], config: ReturnType<typeof loadConfig>): Promise<number> {
  let values: { apply?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({ args: rest, options: { apply: { type: 'boolean' }, help: { type: 'boolean' } } }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\nUsage:\n${DISTRIBUTION_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`Usage:\n${DISTRIBUTION_USAGE}\nSee docs/scale-out.md.\n`);
    return 0;
  }
  const map = loadDistributionMap();
  const warn = (message: string) => process.stderr.write(`distribution: ${message}\n`);
  let db: Awaited<ReturnType<typeof openDatabase>> | null = null;
  let client: pg.Client | null = null;
  let catalog: Catalog | undefined;
  try {
    try {
      db = await openDatabase(config);
      client = new pg.Client({ connectionString: db.sessionUrl });
      await client.connect();
      catalog = await readCatalog(client);
      if (!catalog.tables.some((t) => t in map.tables)) catalog = undefined; // not migrated: no keys to order by
    } catch (error) {
      if (values.apply) throw error;
      warn(`no database catalog read (${error instanceof Error ? error.message : String(error)}); the map's order`);
      await client?.end().catch(() => undefined);
      client = null;
    }
    const script = distributionScript(map, catalog);
    if (!catalog && client) warn("the database has none of the map's tables (run migrate first); the map's order");
    for (const warning of script.warnings) warn(warning);
    if (!values.apply) {
      process.stdout.write(formatScript(map, script));
      return 0;
    }
    if (!(await citusAvailable(client!))) {
      process.stdout.write(formatScript(map, script));
      warn(
        `--apply: citus is not available on this server (no 'citus' in pg_available_extensions${db!.embedded ? '; the embedded engine stays single-node' : ''}). Nothing was changed; the script is on stdout, for a Citus coordinator.`,
      );
      return 3;
    }
    const missing = Object.keys(map.tables).filter((t) => !catalog?.tables.includes(t));
    if (missing.length) {
      warn(`--apply: the database lacks ${missing.join(', ')}: run migrate first. Nothing was changed.`);
      return 3;
    }
    try {
      const result = await applyDistribution(client!, script.statements, (statement, outcome) =>
        process.stderr.write(
          `${outcome === 'applied' ? 'ran' : 'skipped (already in Citus metadata)'}: ${statement}\n`,
        ),
      );
      process.stdout.write(`${JSON.stringify({ applied: result.applied.length, skipped: result.skipped })}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof DistributionStepError)) throw error;
      warn(
        `--apply stopped: ${error.message}\nThe ${error.index} statements before it were applied; fix the cause and run distribution --apply again (tables already distributed are skipped).`,
      );
      return 1;
    }
  } finally {
    await client?.end().catch(() => undefined);
    await db?.stop();
  }
}

/** Operator commands. Results go to stdout as one JSON object; logs go to stderr. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig(process.env);
  const logger = createRootLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 2);
  switch (command) {
    case 'migrate': {
      const db = await openDatabase(config);
      try {
        const applied = await migrate(db.sessionUrl);
        process.stdout.write(`${JSON.stringify({ applied })}\n`);
      } finally {
        await db.stop();
      }
      return 0;
    }
    case 'platform:create': {
      const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
      const name = values.name?.trim();
      if (!name || name.length > 255) {
        process.stderr.write(`--name is required (1 to 255 characters)\n${USAGE}\n`);
        return 2;
      }
      checkKeyEncryptionKeyConfig(config); // fail fast on a missing key, before touching the database
      const db = await openDatabase(config);
      try {
        await migrate(db.sessionUrl);
        const context = await NestFactory.createApplicationContext(
          AppModule.forRoot(config, db.url, { runWorker: false }),
          {
            logger: new PinoNestLogger(logger),
          },
        );
        try {
          // The platform and its audit event (actor `system`) commit together.
          const created = await context.get(TransactionService).run(async (m) => {
            const made = await context.get(PlatformsService).create(name);
            const platformUuid = parseId('Platform', made.platform.id)!;
            await context.get(AuditTrail).recordSystem(m, platformUuid, 'cli:platform:create', [made.platform.id]);
            return made;
          });
          process.stdout.write(`${JSON.stringify(created)}\n`);
        } finally {
          await context.close();
        }
      } finally {
        await db.stop();
      }
      return 0;
    }
    case 'audit:verify':
    case 'audit:export': {
      const { values } = parseArgs({
        args: rest,
        options: { platform: { type: 'string' }, since: { type: 'string' } },
      });
      const platformUuid = values.platform === undefined ? null : parseId('Platform', values.platform);
      if (values.platform !== undefined && !platformUuid) {
        process.stderr.write(`--platform must be a Platform:<uuid>\n${USAGE}\n`);
        return 2;
      }
      const since = values.since === undefined ? null : new Date(values.since);
      if (command === 'audit:export' && (!since || !ISO_TIME.test(values.since!) || Number.isNaN(since.getTime()))) {
        process.stderr.write(`--since must be an ISO 8601 date-time (e.g. 2026-01-01T00:00:00Z)\n${USAGE}\n`);
        return 2;
      }
      const db = await openDatabase(config);
      const data = new DataSource(dataSourceOptions(db.url, 2));
      try {
        await data.initialize();
        if (command === 'audit:export') {
          for await (const event of exportEvents(data, since!)) {
            if (!process.stdout.write(`${JSON.stringify(event)}\n`)) await once(process.stdout, 'drain');
          }
          return 0;
        }
        const result = await verifyChains(data, platformUuid);
        process.stdout.write(`${JSON.stringify(result)}\n`);
        return result.ok ? 0 : 3;
      } finally {
        if (data.isInitialized) await data.destroy();
        await db.stop();
      }
    }
    case 'ledger:verify': {
      const { values } = parseArgs({ args: rest, options: { platform: { type: 'string' } } });
      const platformUuid = values.platform === undefined ? null : parseId('Platform', values.platform);
      if (values.platform !== undefined && !platformUuid) {
        process.stderr.write(`--platform must be a Platform:<uuid>\n${USAGE}\n`);
        return 2;
      }
      const db = await openDatabase(config);
      const data = new DataSource(dataSourceOptions(db.url, 1));
      try {
        await data.initialize();
        const result = await verifyLedger(data, platformUuid);
        process.stdout.write(`${JSON.stringify(result)}\n`);
        if (result.violation) process.stderr.write(`ledger:verify: ${result.violation.problem}\n`);
        return result.ok ? 0 : 3;
      } finally {
        if (data.isInitialized) await data.destroy();
        await db.stop();
      }
    }
    case 'stablecoin:enablement': {
      const { values } = parseArgs({
        args: rest,
        options: { stablecoin: { type: 'string' }, status: { type: 'string' } },
      });
      const coinUuid = values.stablecoin === undefined ? null : parseId('Stablecoin', values.stablecoin);
      const status = values.status as OperatorGridStatus | undefined;
      if (!coinUuid || !status || !OPERATOR_GRID_STATUSES.includes(status)) {
        process.stderr.write(
          `--stablecoin Stablecoin:<uuid> and --status ${OPERATOR_GRID_STATUSES.join('|')} are required\n${USAGE}\n`,
        );
        return 2;
      }
      checkKeyEncryptionKeyConfig(config);
      const db = await openDatabase(config);
      try {
        await migrate(db.sessionUrl);
        const context = await NestFactory.createApplicationContext(
          AppModule.forRoot(config, db.url, { runWorker: false }),
          { logger: new PinoNestLogger(logger) },
        );
        try {
          // The change, its webhook and its audit event (actor `system`) commit together.
          const coin = await context.get(TransactionService).run(async (m) => {
            const changed = await context.get(StablecoinsService).operatorSetGridStatus(m, null, coinUuid, status);
            const platformUuid = (
              await m.query<Array<{ platform_id: string }>>('SELECT platform_id FROM stablecoins WHERE id = $1', [
                coinUuid,
              ])
            )[0].platform_id;
            await context.get(AuditTrail).recordSystem(m, platformUuid, 'cli:stablecoin:enablement', [changed.id]);
            return changed;
          });
          process.stdout.write(`${JSON.stringify(coin)}\n`);
          return 0;
        } catch (error) {
          const e = error as { code?: string; message?: string };
          if (e.code === 'STABLECOIN_NOT_FOUND' || e.code === 'INVALID_STATE_TRANSITION') {
            process.stderr.write(`stablecoin:enablement: ${e.message}\n`);
            return 3;
          }
          throw error;
        } finally {
          await context.close();
        }
      } finally {
        await db.stop();
      }
    }
    case 'settlements:list':
    case 'settlements:retry':
    case 'settlements:resolve':
      return settlements(command, rest, config, logger);
    case 'distribution':
      return distribution(rest, config);
    case 'keys:status':
    case 'keys:rotate': {
      const { values } = parseArgs({ args: rest, options: { 'batch-size': { type: 'string' } } });
      const batchSize = Number(values['batch-size'] ?? 500);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
        process.stderr.write(`--batch-size is an integer from 1 to 10000\n${USAGE}\n`);
        return 2;
      }
      checkKeyEncryptionKeyConfig(config);
      for (const warning of keyConfigWarnings(config)) process.stderr.write(`warning: ${warning}\n`);
      const db = await openDatabase(config);
      try {
        const context = await NestFactory.createApplicationContext(
          AppModule.forRoot(config, db.url, { runWorker: false, checkKeyRing: false }),
          { logger: new PinoNestLogger(logger) },
        );
        try {
          const sealed = context.get(SealedColumns);
          if (command === 'keys:rotate') {
            const unknown = await sealed.unknownKeys();
            if (unknown.size) {
              process.stderr.write(
                `Cannot rotate: no key of the ring opens values sealed by ${[...unknown.keys()].join(', ')}\n`,
              );
              return 1;
            }
            let total = 0;
            await sealed.resealAll(batchSize, (column, rewritten) => {
              total += rewritten;
              process.stdout.write(`${JSON.stringify({ progress: { column, resealed: rewritten, total } })}\n`);
            });
          }
          const currentKey = context.get(SecretBox).currentKeyId;
          const counts = Object.fromEntries(await sealed.countByKey());
          process.stdout.write(`${JSON.stringify({ currentKey, counts })}\n`);
          const left = Object.entries(counts).filter(([key, n]) => key !== currentKey && n > 0);
          if (command === 'keys:rotate' && left.length) {
            process.stderr.write(
              `Values still sealed by other keys (locked by requests throughout): run keys:rotate again\n`,
            );
            return 1;
          }
        } finally {
          await context.close();
        }
      } finally {
        await db.stop();
      }
      return 0;
    }
    case 'help':
    case '--help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${describeStartupError(error)}\n`);
    process.exit(1);
  },
);
