import { createHash } from 'node:crypto';
import { noteAuditResource } from '../audit/audit-trail.js';
import { Injectable } from '@nestjs/common';
import { fileTypeFromBuffer } from 'file-type';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import type { MultipartForm } from '../common/multipart.js';
import { type Page, paginate } from '../common/pagination.js';
import { validateBody } from '../common/validate-body.js';
import { AppConfig } from '../config/app-config.js';
import { CustomersService } from '../customers/customers.service.js';
import { conflictFor, findOwned } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { BeneficialOwnersService } from '../beneficial-owners/beneficial-owners.service.js';
import { type Document, DocumentReplaceFields, DocumentUploadFields, type ListDocumentsQuery } from './document.dto.js';
import { DocumentEntity } from './document.entity.js';
import { DocumentStore } from './document-store.js';
import { ACCEPTED_CONTENT_TYPES, type HolderType, sandboxRejection } from './document.types.js';
import { sanitizeFileName } from './file-name.js';

export function renderDocument(row: DocumentEntity): Document {
  return {
    id: formatId('Document', row.id),
    documentHolder: formatId(row.holderType, row.holderId),
    documentType: row.documentType,
    ...(row.side !== null ? { side: row.side } : {}),
    country: row.country,
    ...(row.documentNumber !== null ? { documentNumber: row.documentNumber } : {}),
    ...(row.issuingAuthority !== null ? { issuingAuthority: row.issuingAuthority } : {}),
    fileName: row.fileName,
    contentType: row.contentType,
    fileSize: row.sizeBytes,
    reviewStatus: row.reviewStatus,
    ...(row.rejectionCode !== null ? { rejectionCode: row.rejectionCode } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const notFound = (id: string) => new ApiError('NOT_FOUND', `Document ${formatId('Document', id)} not found`);

/** A checked file: its bytes and what they are (file-type), or the FieldError saying why not. */
export interface CheckedFile {
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

/** The uploaded file, when its bytes are a PDF, JPEG or PNG (file-type); else a FieldError on `file`. */
export async function checkFile(form: MultipartForm, errors: FieldError[]): Promise<CheckedFile | null> {
  if (!form.file) return null;
  const { bytes } = form.file;
  const type = bytes.length > 0 ? await fileTypeFromBuffer(bytes) : undefined;
  if (!type || !(ACCEPTED_CONTENT_TYPES as readonly string[]).includes(type.mime)) {
    errors.push(
      fieldError('file', 'file must be a PDF, JPEG or PNG (decided from its content, not its name or declared type)', {
        enum: [...ACCEPTED_CONTENT_TYPES],
      }),
    );
    return null;
  }
  return { bytes, contentType: type.mime, fileName: sanitizeFileName(form.file.fileName) };
}

/**
 * Verification documents (the reference's /documents): metadata in `documents`, bytes in the
 * DocumentStore, both written in one transaction. The owner of both tables. One document per
 * holder, type and side (409 DOCUMENT_ALREADY_EXISTS: replace it with PUT).
 */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly store: DocumentStore,
    private readonly customers: CustomersService,
    private readonly owners: BeneficialOwnersService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async upload(platformId: string, form: MultipartForm): Promise<Document> {
    const parsed = validateBody(DocumentUploadFields, form.fields);
    const errors = [...form.errors, ...parsed.errors];
    const file = await checkFile(form, errors);
    if (!form.file) errors.push(fieldError('file', 'file is required'));
    if (errors.length || !file) throw invalidInput(errors);
    const fields = parsed.value;
    const holderType = fields.documentHolder.split(':')[0] as HolderType;
    const holderId = parseId(holderType, fields.documentHolder)!;
    return this.tx.run(async (m) => {
      const customerId = await this.holderCustomer(m, platformId, holderType, holderId);
      const existing = await this.sameKind(m, platformId, holderId, fields.documentType, fields.side ?? null);
      if (existing) throw alreadyExists(existing);
      const now = this.clock.now();
      const rejection = this.config.SANDBOX ? sandboxRejection(fields.documentNumber) : null;
      const row: DocumentEntity = {
        id: newUuid(),
        platformId,
        purpose: 'VERIFICATION',
        holderType,
        holderId,
        customerId,
        documentType: fields.documentType,
        side: fields.side ?? null,
        country: fields.country,
        documentNumber: fields.documentNumber ?? null,
        issuingAuthority: fields.issuingAuthority ?? null,
        fileName: file.fileName,
        contentType: file.contentType,
        sizeBytes: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        reviewStatus: rejection ? 'REJECTED' : 'PENDING',
        rejectionCode: rejection,
        submittedAt: null,
        quoteId: null,
        createdAt: now,
        updatedAt: now,
      };
      try {
        await m.insert(DocumentEntity, row);
      } catch (error) {
        throw uniqueViolation(error) ?? error;
      }
      await this.store.put(m, platformId, row.id, file.bytes);
      noteAuditResource(formatId('Document', row.id));
      return renderDocument(row);
    });
  }

  async list(platformId: string, query: ListDocumentsQuery): Promise<Page<Document>> {
    const qb = this.tx.manager
      .createQueryBuilder(DocumentEntity, 'd')
      .where(`d.platform_id = :platformId AND d.purpose = 'VERIFICATION'`, { platformId });
    if (query.documentHolder !== undefined) {
      const [type] = query.documentHolder.split(':');
      qb.andWhere('d.holder_id = :holderId AND d.holder_type = :type', {
        holderId: parseId(type, query.documentHolder),
        type,
      });
    }
    return paginate(qb, query, renderDocument);
  }

  async get(platformId: string, id: string): Promise<Document> {
    return renderDocument(await this.find(this.tx.manager, platformId, id));
  }

  /** The bytes and the (sanitized) file name, for a download. */
  async content(platformId: string, id: string): Promise<{ bytes: Buffer; fileName: string }> {
    return this.tx.run(async (m) => {
      const row = await this.find(m, platformId, id);
      const bytes = await this.store.read(m, platformId, row.id);
      if (!bytes) throw notFound(id);
      return { bytes, fileName: row.fileName };
    });
  }

  async replace(platformId: string, id: string, form: MultipartForm): Promise<Document> {
    const parsed = validateBody(DocumentReplaceFields, form.fields);
    const errors = [...form.errors, ...parsed.errors];
    const file = await checkFile(form, errors);
    if (!form.file && !errors.length && Object.keys(form.fields).length === 0)
      errors.push(fieldError('file', 'send a new file, new metadata, or both'));
    if (errors.length) throw invalidInput(errors);
    const fields = parsed.value;
    return this.tx.run(async (m) => {
      const row = await this.find(m, platformId, id, true);
      if (row.submittedAt !== null && row.reviewStatus !== 'REJECTED')
        throw new ApiError(
          'CONFLICT',
          `Document ${formatId('Document', id)} was submitted for verification; it can be replaced once rejected`,
          { details: { submittedAt: row.submittedAt.toISOString(), reviewStatus: row.reviewStatus } },
        );
      const next: DocumentEntity = {
        ...row,
        documentType: fields.documentType ?? row.documentType,
        side: fields.side ?? row.side,
        country: fields.country ?? row.country,
        documentNumber: fields.documentNumber ?? row.documentNumber,
        issuingAuthority: fields.issuingAuthority ?? row.issuingAuthority,
        ...(file
          ? {
              fileName: file.fileName,
              contentType: file.contentType,
              sizeBytes: file.bytes.length,
              sha256: createHash('sha256').update(file.bytes).digest('hex'),
            }
          : {}),
        submittedAt: null,
        updatedAt: this.clock.now(),
      };
      const rejection = this.config.SANDBOX ? sandboxRejection(next.documentNumber) : null;
      next.reviewStatus = rejection ? 'REJECTED' : 'PENDING';
      next.rejectionCode = rejection;
      if (next.documentType !== row.documentType || next.side !== row.side) {
        const existing = await this.sameKind(m, platformId, row.holderId, next.documentType, next.side);
        if (existing && existing !== row.id) throw alreadyExists(existing);
      }
      const { id: _id, platformId: _p, ...changes } = next;
      void _id;
      void _p;
      try {
        await m.update(DocumentEntity, { id: row.id, platformId }, changes);
      } catch (error) {
        throw uniqueViolation(error) ?? error;
      }
      if (file) await this.store.put(m, platformId, row.id, file.bytes);
      noteAuditResource(formatId('Document', row.id));
      return renderDocument(next);
    });
  }

  /** 204; 409 CONFLICT (`details.submittedAt`) once a verification was submitted with it. */
  async remove(platformId: string, id: string): Promise<void> {
    await this.tx.run(async (m) => {
      const row = await this.find(m, platformId, id, true);
      if (row.submittedAt !== null)
        throw new ApiError(
          'CONFLICT',
          `Document ${formatId('Document', id)} was submitted for verification and cannot be deleted`,
          { details: { submittedAt: row.submittedAt.toISOString() } },
        );
      await this.store.remove(m, platformId, row.id);
      await m.delete(DocumentEntity, { id: row.id, platformId });
      noteAuditResource(formatId('Document', row.id));
    });
  }

  /** For verifications: a customer's documents and its beneficial owners' (locked FOR UPDATE). */
  ofCustomer(m: EntityManager, platformId: string, customerId: string): Promise<DocumentEntity[]> {
    return m
      .createQueryBuilder(DocumentEntity, 'd')
      .where(`d.platform_id = :platformId AND d.customer_id = :customerId AND d.purpose = 'VERIFICATION'`, {
        platformId,
        customerId,
      })
      .orderBy('d.id', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** For verifications: marks documents submitted (DELETE is then refused). */
  async markSubmitted(m: EntityManager, platformId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await m.query('UPDATE documents SET submitted_at = $2 WHERE platform_id = $3 AND id = ANY($1::uuid[])', [
      ids,
      this.clock.now(),
      platformId,
    ]);
  }

  /** For verifications: review decided (APPROVED verification accepts its pending documents). */
  async acceptPending(m: EntityManager, platformId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await m.query(
      `UPDATE documents SET review_status = 'ACCEPTED'
        WHERE platform_id = $2 AND id = ANY($1::uuid[]) AND review_status = 'PENDING'`,
      [ids, platformId],
    );
  }

  private find(m: EntityManager, platformId: string, id: string, lock = false): Promise<DocumentEntity> {
    return findOwned(
      m,
      DocumentEntity,
      platformId,
      { id, purpose: 'VERIFICATION' },
      () => notFound(id),
      lock ? 'update' : undefined,
    );
  }

  /** The holder's customer (a deleted customer takes no new document: 410). */
  private async holderCustomer(
    m: EntityManager,
    platformId: string,
    holderType: HolderType,
    holderId: string,
  ): Promise<string> {
    if (holderType === 'Customer') return (await this.customers.requireActive(m, platformId, holderId)).id;
    const owner = await this.owners.find(m, platformId, holderId, 'share');
    await this.customers.requireActive(m, platformId, owner.customerId);
    return owner.customerId;
  }

  private async sameKind(
    m: EntityManager,
    platformId: string,
    holderId: string,
    documentType: string,
    side: string | null,
  ): Promise<string | null> {
    const rows = await m.query<Array<{ id: string }>>(
      `SELECT id FROM documents WHERE platform_id = $1 AND holder_id = $2 AND document_type = $3
         AND coalesce(side, '') = coalesce($4, '') AND purpose = 'VERIFICATION'`,
      [platformId, holderId, documentType, side],
    );
    return rows[0]?.id ?? null;
  }
}

function alreadyExists(existingId: string | null): ApiError {
  return new ApiError(
    'DOCUMENT_ALREADY_EXISTS',
    'A document of this type (and side) exists for the holder; replace it with PUT /documents/{documentId}',
    existingId ? { details: { documentId: formatId('Document', existingId) } } : {},
  );
}

function uniqueViolation(error: unknown): ApiError | null {
  return conflictFor(error, { documents_holder_type_side: () => alreadyExists(null) });
}
