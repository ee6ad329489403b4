import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { portNotConfigured } from '../common/requires-port.js';

/**
 * Where documents' bytes live. Every call takes the transaction of the change that writes or
 * reads the document's row, so a row and its bytes commit (or roll back) together. PostgreSQL is
 * the default; an object store would be another implementation (write the object under a key
 * derived from the document id before the row commits, and sweep objects without a row).
 */
export abstract class DocumentStore {
  abstract put(m: EntityManager, platformId: string, documentId: string, bytes: Buffer): Promise<void>;
  abstract read(m: EntityManager, platformId: string, documentId: string): Promise<Buffer | null>;
  abstract remove(m: EntityManager, platformId: string, documentId: string): Promise<void>;
}

/** The default store: `document_contents` (bytea), in the same database and transaction as `documents`. */
@Injectable()
export class PostgresDocumentStore extends DocumentStore {
  async put(m: EntityManager, platformId: string, documentId: string, bytes: Buffer): Promise<void> {
    await m.query(
      `INSERT INTO document_contents (platform_id, document_id, bytes) VALUES ($1, $2, $3)
       ON CONFLICT (document_id, platform_id) DO UPDATE SET bytes = EXCLUDED.bytes`,
      [platformId, documentId, bytes],
    );
  }

  async read(m: EntityManager, platformId: string, documentId: string): Promise<Buffer | null> {
    const rows = await m.query<Array<{ bytes: Buffer }>>(
      'SELECT bytes FROM document_contents WHERE platform_id = $1 AND document_id = $2',
      [platformId, documentId],
    );
    return rows[0]?.bytes ?? null;
  }

  async remove(m: EntityManager, platformId: string, documentId: string): Promise<void> {
    await m.query('DELETE FROM document_contents WHERE platform_id = $1 AND document_id = $2', [
      platformId,
      documentId,
    ]);
  }
}

/**
 * No store (`DOCUMENT_STORE=none`, docs/production.md): uploads and downloads answer 503
 * `SERVICE_UNAVAILABLE` (`details.notConfigured`: `DOCUMENT_STORE`) (`@RequiresPort` on those routes refuses before anything is
 * written; a call that still reaches the store gets the same answer). Removing holds nothing to remove.
 */
export class UnconfiguredDocumentStore extends DocumentStore {
  put(): Promise<void> {
    return Promise.reject(portNotConfigured('DOCUMENT_STORE'));
  }
  read(): Promise<Buffer | null> {
    return Promise.reject(portNotConfigured('DOCUMENT_STORE'));
  }
  remove(): Promise<void> {
    return Promise.resolve();
  }
}
