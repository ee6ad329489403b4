import 'reflect-metadata';
import { createApp, API_VERSION } from './app.factory.js';
import { AppConfig, ConfigError, loadConfig } from './config/app-config.js';
import { describeStartupError } from './common/startup-error.js';
import { migrate, openDatabase } from './database/open-database.js';
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

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createRootLogger(config.LOG_LEVEL);
  for (const warning of keyConfigWarnings(config)) logger.warn(warning);
  const db = await openDatabase(config);
  if (db.embedded || config.MIGRATIONS_RUN) {
    const applied = await migrate(db.sessionUrl);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  const app = await createApp(config, db.url, logger);
  await app.listen(config.PORT);
  const address = (app.getHttpServer() as import('node:http').Server).address() as { port: number };
  const base = `http://localhost:${address.port}`;
  logger.info(
    { port: address.port, role: config.ROLE, embedded: db.embedded, pid: process.pid },
    `listening on ${base}`,
  );

  if (db.embedded && (await app.get(PlatformsService).count()) === 0) {
    const { platform, token } = await app.get(PlatformsService).create('Sandbox platform');
    process.stdout.write(
      [
        '',
        `Created ${platform.id} on the empty embedded database. Its API credentials (shown once):`,
        `  clientId:     ${token.clientId}`,
        `  clientSecret: ${token.clientSecret}`,
        'Try:',
        `  curl -u '${token.clientId}:${token.clientSecret}' ${base}/${API_VERSION}/tokens`,
        '',
      ].join('\n') + '\n',
    );
  }

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
}

main().catch((error: unknown) => {
  process.stderr.write(`Startup failed: ${describeStartupError(error)}\n`);
  process.exit(1);
});
