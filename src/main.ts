import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createApp, API_VERSION } from './app.factory.js';
import { AppConfig, ConfigError, loadConfig } from './config/app-config.js';
import { portAdapters, SANDBOX_ON_DATABASE_WARNING } from './config/ports.js';
import { describeStartupError } from './common/startup-error.js';
import { describeDatabase, migrate, openDatabase } from './database/open-database.js';
import { gracefulShutdown } from './health/shutdown.js';
import { createRootLogger } from './logging/logger.js';
import { PlatformsService } from './platforms/platforms.service.js';
import { checkKeyEncryptionKeyConfig, keyConfigWarnings } from './secrets/key-encryption-key.js';

function configOrExit(): AppConfig {
  try {
    const config = loadConfig(process.env);
    checkKeyEncryptionKeyConfig(config); // fail fast: PostgreSQL without WEBHOOK_KEY_ENCRYPTION_KEY
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** The service's name and version (package.json sits two levels above dist/src/, in the image too). */
function packageInfo(): { name: string; version: string } {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
  };
}

/**
 * At LOG_LEVEL=info a start prints a handful of lines: what starts (version, engine, role), the
 * migrations applied, what each role started, where it listens, and on an empty embedded database
 * the credentials banner, last. Nest's per-module and per-route lines are at debug.
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createRootLogger(config.LOG_LEVEL);
  const { name, version } = packageInfo();
  // The starting line also says whether this is a sandbox and which adapter each outside-world
  // port runs (docs/production.md).
  logger.info(
    {
      version,
      node: process.version,
      role: config.ROLE,
      ...describeDatabase(config),
      sandbox: config.SANDBOX,
      ports: portAdapters(config),
    },
    `starting ${name} ${version}`,
  );
  for (const warning of keyConfigWarnings(config)) logger.warn(warning);
  if (config.sandboxOnDatabase) logger.warn(SANDBOX_ON_DATABASE_WARNING);
  const db = await openDatabase(config);
  if (db.embedded || config.MIGRATIONS_RUN) {
    const applied = await migrate(db.sessionUrl);
    logger.info({ applied }, applied.length ? 'migrations applied' : 'no pending migrations');
  }
  const app = await createApp(config, db.url, logger);
  // The handlers go in before the port opens: a SIGTERM at any moment after (even while the
  // banner's platform is being created) shuts down cleanly instead of killing the process.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down');
    gracefulShutdown(app, config, logger, () => db.stop()).then(
      (clean) => {
        logger.info({ clean }, 'stopped');
        logger.flush();
        process.exit(clean ? 0 : 1);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen(config.PORT);
  const address = (app.getHttpServer() as import('node:http').Server).address() as { port: number };
  const base = `http://localhost:${address.port}`;
  const consoleUrl = config.CONSOLE && config.ROLE !== 'worker' ? `${base}/console/` : undefined;
  logger.info(
    { port: address.port, role: config.ROLE, embedded: db.embedded, pid: process.pid, console: consoleUrl },
    `listening on ${base}`,
  );

  if (db.embedded && (await app.get(PlatformsService).count()) === 0) {
    const { platform, token } = await app.get(PlatformsService).create('Sandbox platform');
    // The log lines written so far reach stdout first: the banner is the last thing a start prints.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    process.stdout.write(
      [
        '',
        `Created ${platform.id} on the empty embedded database. Its API credentials (shown once):`,
        `  clientId:     ${token.clientId}`,
        `  clientSecret: ${token.clientSecret}`,
        ...(consoleUrl ? [`Operator console (sign in with these credentials): ${consoleUrl}`] : []),
        'Try:',
        `  curl -u '${token.clientId}:${token.clientSecret}' ${base}/${API_VERSION}/tokens`,
      ].join('\n') + '\n',
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Startup failed: ${describeStartupError(error)}\n`);
  process.exit(1);
});
