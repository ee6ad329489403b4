import { noteAuditResource } from '../audit/audit-trail.js';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { CustomersService, type LockedConfig } from '../customers/customers.service.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { customerBody } from './csv-row.js';

/** Rows staged per INSERT while the CSV streams in (bounded memory: one batch at a time). */
const STAGE_BATCH = 1000;
/** Rows imported per transaction (short: on the embedded engine a transaction holds the one session). */
const IMPORT_BATCH = 50;
/** A job's answer lists at most this many failed rows. */
export const MAX_LISTED_ERRORS = 1000;
/** One CSV record (a line, quotes included) at most this long. */
const MAX_RECORD_BYTES = 64 * 1024;

export interface BulkImportErrorEntry {
  correlationId: string;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface BulkCustomerImportJob {
  id: string;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  progress: { total: number; processed: number; successful: number; failed: number };
  errors: BulkImportErrorEntry[];
  completedAt?: string;
}

interface JobRow {
  id: string;
  platform_id: string;
  status: string;
  total: number;
  processed: number;
  successful: number;
  failed: number;
  completed_at: Date | null;
}

const notFound = (id: string) => new ApiError('BULK_UPLOAD_JOB_NOT_FOUND', `Job ${formatId('Job', id)} not found`);

/**
 * The bulk customer import (reference POST /customers/bulk/csv): the CSV is parsed as it streams
 * in (csv-parse) and staged in `bulk_import_rows` a batch at a time; the job is then imported in
 * the background, IMPORT_BATCH rows per transaction, each row's customer created under a savepoint
 * and the row marked done in the same transaction. A restart resumes open jobs; a row already done
 * is never imported again, and an existing active customer with the row's `platformCustomerId`
 * counts as imported (importing a file twice creates nobody twice). The owner of both tables.
 */
@Injectable()
export class BulkImportService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('bulk-import');
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;
  private resuming: Promise<void> = Promise.resolve();

  constructor(
    private readonly tx: TransactionService,
    private readonly customers: CustomersService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Resumes the jobs a stopped process left open (every API replica tries; batches lock the job).
   * Awaited before the app listens, so its statements never overlap the first requests.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.ROLE === 'worker') return;
    this.resuming = this.resumeOpenJobs().catch((err: unknown) =>
      this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'bulk imports not resumed'),
    );
    await this.resuming;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled(this.running.values());
  }

  async resumeOpenJobs(): Promise<void> {
    // Every platform's open jobs, read without a lock; each is then changed (or imported, under
    // its row lock) on its own platform.
    const jobs = await this.tx.manager.query<Array<{ id: string; platform_id: string; status: string }>>(
      `SELECT /* cross-shard: bulk-import-open-jobs */ id, platform_id, status FROM bulk_import_jobs
        WHERE status IN ('UPLOADING', 'PENDING', 'PROCESSING') ORDER BY id`,
    );
    for (const job of jobs) {
      if (job.status !== 'UPLOADING') continue;
      // An upload cut by a stop never finished staging: nothing of it is imported.
      await this.tx.manager.query(
        `UPDATE bulk_import_jobs SET status = 'FAILED', completed_at = now(), updated_at = now()
          WHERE id = $1 AND platform_id = $2 AND status = 'UPLOADING'`,
        [job.id, job.platform_id],
      );
    }
    for (const job of jobs) if (job.status !== 'UPLOADING') this.start(job.id, job.platform_id);
  }

  /**
   * Stages a CSV: answers the job once every row is staged (the file is then fully read). A CSV
   * that cannot be parsed, or an upload cut short, leaves nothing: its job and rows are deleted.
   */
  async stage(platformId: string, file: Readable): Promise<{ jobId: string; status: 'PENDING' }> {
    const id = newUuid();
    const now = this.clock.now();
    await this.tx.manager.query(
      `INSERT INTO bulk_import_jobs (id, platform_id, status, created_at, updated_at) VALUES ($1, $2, 'UPLOADING', $3, $3)`,
      [id, platformId, now],
    );
    try {
      const total = await this.stageRows(platformId, id, file);
      if (total === 0) throw invalidInput([fieldError('file', 'the CSV has a header and no customer rows')]);
      // the job's audit event commits with its PENDING status (the before-commit hook)
      await this.tx.run(async (m) => {
        noteAuditResource(formatId('Job', id));
        await m.query(
          `UPDATE bulk_import_jobs SET status = 'PENDING', total = $2, updated_at = $3 WHERE id = $1 AND platform_id = $4`,
          [id, total, this.clock.now(), platformId],
        );
      });
    } catch (error) {
      file.resume();
      await this.tx.manager.query('DELETE FROM bulk_import_jobs WHERE id = $1 AND platform_id = $2', [id, platformId]);
      throw error;
    }
    this.start(id, platformId);
    return { jobId: formatId('Job', id), status: 'PENDING' };
  }

  private async stageRows(platformId: string, jobId: string, file: Readable): Promise<number> {
    const parser = file.pipe(
      parse({
        columns: true,
        bom: true,
        trim: false,
        skip_empty_lines: true,
        max_record_size: MAX_RECORD_BYTES,
        relax_column_count: true,
      }),
    );
    let batch: Array<{ n: number; payload: string }> = [];
    let n = 0;
    const flush = async () => {
      if (!batch.length) return;
      await this.tx.manager.query(
        `INSERT INTO bulk_import_rows (platform_id, job_id, row_number, payload, status)
         SELECT $4, $1, n, p::jsonb, 'PENDING' FROM unnest($2::int[], $3::text[]) AS r(n, p)`,
        [jobId, batch.map((r) => r.n), batch.map((r) => r.payload), platformId],
      );
      batch = [];
    };
    try {
      for await (const record of parser as AsyncIterable<Record<string, string>>) {
        n++;
        batch.push({ n, payload: JSON.stringify(record).replaceAll('\\u0000', '') });
        if (batch.length >= STAGE_BATCH) await flush();
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const code = (error as { code?: string }).code;
      if (typeof code === 'string' && code.startsWith('CSV_'))
        throw invalidInput([fieldError('file', `the CSV cannot be parsed: ${(error as Error).message}`)]);
      throw error;
    }
    await flush();
    return n;
  }

  async get(platformId: string, id: string): Promise<BulkCustomerImportJob> {
    const [job] = await this.tx.manager.query<JobRow[]>(
      'SELECT * FROM bulk_import_jobs WHERE id = $1 AND platform_id = $2 AND status <> $3',
      [id, platformId, 'UPLOADING'],
    );
    if (!job) throw notFound(id);
    return this.render(this.tx.manager, job);
  }

  /** Runs a job in the background (once per process at a time). */
  start(id: string, platformId: string): void {
    if (this.running.has(id) || this.stopping) return;
    const run = this.run(id, platformId)
      .catch((err: unknown) =>
        this.logger.error({ err: err instanceof Error ? err.message : String(err), jobId: id }, 'bulk import stopped'),
      )
      .finally(() => this.running.delete(id));
    this.running.set(id, run);
  }

  /** For tests: resolves when this process's runs of the job end. */
  async settled(id: string): Promise<void> {
    await this.resuming;
    await this.running.get(id);
  }

  private async run(id: string, platformId: string): Promise<void> {
    while (!this.stopping) {
      const more = await this.tx.run((m) => this.importBatch(m, id, platformId));
      if (!more) return;
    }
  }

  /**
   * One batch under the job's row lock (FOR UPDATE: a process resuming the same job waits for the
   * other's batch, then takes the next rows); false once the job is done.
   */
  private async importBatch(m: EntityManager, id: string, platformId: string): Promise<boolean> {
    const [job] = await m.query<JobRow[]>(
      `SELECT * FROM bulk_import_jobs WHERE id = $1 AND platform_id = $2 AND status IN ('PENDING', 'PROCESSING') FOR UPDATE`,
      [id, platformId],
    );
    if (!job) return false;
    const rows = await m.query<Array<{ row_number: number; payload: Record<string, string> }>>(
      `SELECT row_number, payload FROM bulk_import_rows
        WHERE platform_id = $2 AND job_id = $1 AND status = 'PENDING' ORDER BY row_number LIMIT ${IMPORT_BATCH}`,
      [id, job.platform_id],
    );
    let ok = 0;
    let failed = 0;
    // Per batch, not per row: the rows already imported (by platformCustomerId), the platform's
    // configuration (locked once), and the rows' outcomes (one UPDATE).
    const ids = rows
      .map((r) => r.payload.platformCustomerId)
      .filter((v): v is string => typeof v === 'string' && v !== '');
    const existing = new Set(
      ids.length
        ? (
            await m.query<Array<{ platform_customer_id: string }>>(
              'SELECT platform_customer_id FROM customers WHERE platform_id = $1 AND platform_customer_id = ANY($2::text[]) AND NOT is_deleted',
              [job.platform_id, ids],
            )
          ).map((r) => r.platform_customer_id)
        : [],
    );
    const config = rows.length ? await this.customers.lockConfig(m, job.platform_id) : undefined;
    const outcomes: Array<{ n: number; status: 'DONE' | 'FAILED'; error: string | null }> = [];
    for (const row of rows) {
      const pcid = row.payload.platformCustomerId;
      // imported before (idempotent by platformCustomerId), or earlier in this file
      const error =
        typeof pcid === 'string' && existing.has(pcid)
          ? null
          : await this.importRow(m, job.platform_id, row.payload, config);
      if (typeof pcid === 'string' && pcid !== '' && !error) existing.add(pcid);
      if (error) failed++;
      else ok++;
      outcomes.push({
        n: row.row_number,
        status: error ? 'FAILED' : 'DONE',
        error: error ? JSON.stringify({ ...error, correlationId: pcid || String(row.row_number) }) : null,
      });
    }
    if (outcomes.length)
      await m.query(
        `UPDATE bulk_import_rows r SET status = o.status, error = o.error::jsonb
           FROM unnest($2::int[], $3::text[], $4::text[]) AS o(n, status, error)
          WHERE r.platform_id = $5 AND r.job_id = $1 AND r.row_number = o.n`,
        [id, outcomes.map((o) => o.n), outcomes.map((o) => o.status), outcomes.map((o) => o.error), job.platform_id],
      );
    const now = this.clock.now();
    const done = rows.length < IMPORT_BATCH;
    await m.query(
      `UPDATE bulk_import_jobs SET status = $2, processed = processed + $3, successful = successful + $4,
         failed = failed + $5, updated_at = $6, completed_at = $7 WHERE id = $1 AND platform_id = $8`,
      [id, done ? 'COMPLETED' : 'PROCESSING', rows.length, ok, failed, now, done ? now : null, platformId],
    );
    if (done) {
      const [updated] = await m.query<JobRow[]>('SELECT * FROM bulk_import_jobs WHERE id = $1 AND platform_id = $2', [
        id,
        platformId,
      ]);
      const view = await this.render(m, updated);
      await this.outbox.write(m, {
        platformId: job.platform_id,
        type: 'BULK_UPLOAD.COMPLETED',
        aggregateId: view.id,
        data: { ...view },
      });
    }
    return !done;
  }

  /** Creates the row's customer under a savepoint; answers the row's error, or null. */
  private async importRow(
    m: EntityManager,
    platformId: string,
    record: Record<string, string>,
    config: LockedConfig | undefined,
  ): Promise<Omit<BulkImportErrorEntry, 'correlationId'> | null> {
    const body = customerBody(record);
    await m.query('SAVEPOINT bulk_row');
    try {
      await this.customers.createIn(m, platformId, body, config);
      await m.query('RELEASE SAVEPOINT bulk_row');
      return null;
    } catch (error) {
      await m.query('ROLLBACK TO SAVEPOINT bulk_row');
      if (error instanceof ApiError)
        return { code: error.code, message: error.reason, ...(error.details ? { details: error.details } : {}) };
      throw error;
    }
  }

  private async render(m: EntityManager, job: JobRow): Promise<BulkCustomerImportJob> {
    const errors = await m.query<Array<{ error: BulkImportErrorEntry }>>(
      `SELECT error FROM bulk_import_rows
        WHERE platform_id = $2 AND job_id = $1 AND status = 'FAILED' ORDER BY row_number LIMIT ${MAX_LISTED_ERRORS}`,
      [job.id, job.platform_id],
    );
    const status = job.status === 'UPLOADING' ? 'PENDING' : (job.status as BulkCustomerImportJob['status']);
    return {
      id: formatId('Job', job.id),
      status,
      progress: { total: job.total, processed: job.processed, successful: job.successful, failed: job.failed },
      errors: errors.map((e) => e.error),
      ...(job.completed_at ? { completedAt: new Date(job.completed_at).toISOString() } : {}),
    };
  }
}
