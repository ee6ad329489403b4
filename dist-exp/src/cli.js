import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppModule } from './app.module.js';
import { loadConfig } from './config/app-config.js';
import { checkWebhookKeyConfig } from './config/webhook-key.js';
import { describeStartupError } from './common/startup-error.js';
import { migrate, openDatabase } from './database/open-database.js';
import { createRootLogger, PinoNestLogger } from './logging/logger.js';
import { PlatformsService } from './platforms/platforms.service.js';
const USAGE = `Usage:
  npm run --silent cli -- platform:create --name NAME   create a platform and its admin token (JSON on stdout)
  npm run --silent cli -- migrate                       apply pending migrations`;
/** Operator commands. Results go to stdout as one JSON object; logs go to stderr. */
async function main(argv) {
    const [command, ...rest] = argv;
    const config = loadConfig(process.env);
    const logger = createRootLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 2);
    switch (command) {
        case 'migrate': {
            const db = await openDatabase(config);
            try {
                const applied = await migrate(db.sessionUrl);
                process.stdout.write(`${JSON.stringify({ applied })}\n`);
            }
            finally {
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
            checkWebhookKeyConfig(config); // fail fast on a missing key, before touching the database
            const db = await openDatabase(config);
            try {
                await migrate(db.sessionUrl);
                const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, db.url, { runWorker: false }), {
                    logger: new PinoNestLogger(logger),
                });
                try {
                    const created = await context.get(PlatformsService).create(name);
                    process.stdout.write(`${JSON.stringify(created)}\n`);
                }
                finally {
                    await context.close();
                }
            }
            finally {
                await db.stop();
            }
            return 0;
        }
        default:
            process.stderr.write(`${USAGE}\n`);
            return 2;
    }
}
main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    process.stderr.write(`${describeStartupError(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=cli.js.map