import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Records every statement the app's pool sends (TypeORM's query logger sees all of them,
 * `START TRANSACTION` and `COMMIT` included). Use on an app of the test's own: nothing else may
 * run queries on it meanwhile.
 */
export class StatementCounter {
  private recording: string[] | null = null;

  constructor(app: INestApplication) {
    const logger = app.get(DataSource).logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      this.recording?.push(query.replace(/\s+/g, ' ').trim());
      logQuery(query, parameters, runner);
    };
  }

  /** The statements `work` caused. */
  async during(work: () => Promise<unknown>): Promise<string[]> {
    this.recording = [];
    try {
      await work();
      return this.recording;
    } finally {
      this.recording = null;
    }
  }
}
