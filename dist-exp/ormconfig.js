/**
 * DataSource for the TypeORM CLI (`npm run migration:generate`). It needs a running PostgreSQL:
 * set DATABASE_URL. The app builds the same DataSource through src/database/data-source.ts.
 */
import 'reflect-metadata';
import { loadConfig } from './src/config/app-config.js';
import { createDataSource } from './src/database/data-source.js';
const config = loadConfig(process.env);
if (!config.DATABASE_URL)
    throw new Error('Set DATABASE_URL to use the TypeORM CLI');
export default createDataSource(config.DATABASE_URL, config.DB_POOL_SIZE);
//# sourceMappingURL=ormconfig.js.map