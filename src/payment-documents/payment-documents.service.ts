import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { noteAuditResource } from '../audit/audit-trail.js';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import type { MultipartForm } from '../common/multipart.js';
import { validateBody } from '../common/validate-body.js';
import { AppConfig } from '../config/app-config.js';
import { CustomersService } from '../customers/customers.service.js';
import { TransactionService } from '../database/transaction.service.js';
import { DocumentStore } from '../documents/document-store.js';
import { checkFile } from '../documents/documents.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { type PaymentDocument, PaymentDocumentUploadFields } from './payment-document.dto.js';
import { missingRequirements } from './payment-document.types.js';

/** A payment document's row (`documents` with purpose PAYMENT). */
interface PaymentDocumentRow {
  id: string;
  customer_id: string;
  document_type: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  quote_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, customer_id, document_type, file_name, content_type, size_bytes, quote_id, created_at, updated_at`;

export function renderPaymentDocument(row: PaymentDocumentRow): PaymentDocument {
  return {
    id: formatId('PaymentDocument', row.id),
    customerId: formatId('Customer', row.customer_id),
    documentType: row.document_type,
    fileName: row.file_name,
    contentType: row.content_type,
    fileSize: row.size_bytes,
    ...(row.quote_id !== null ? { quoteId: formatId('Quote', row.quote_id) } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const notFound = (id: string) =>
  new ApiError('PAYMENT_DOCUMENT_NOT_FOUND', `Payment document ${formatId('PaymentDocument', id)} not found`, {
    details: { documentId: formatId('PaymentDocument', id) },
  });

const alreadyUsed = (row: PaymentDocumentRow) =>
  new ApiError(
    'PAYMENT_DOCUMENT_ALREADY_USED',
    `Payment document ${formatId('PaymentDocument', row.id)} is already attached to a quote; upload the file again to use it on another quote`,
    { details: { documentId: formatId('PaymentDocument', row.id), quoteId: formatId('Quote', row.quote_id!) } },
  );

/** What a quote being created asks of its payment documents. */
export interface QuoteDocuments {
  /** The new quote's id (generated before it is inserted). */
  quoteId: string;
  /** The customer paying, when a customer pays (a document must be that customer's). */
  customerId: string | null;
  purposeOfPayment: string | null;
  /** `documentIds` of the request (PaymentDocument:<uuid>), if any. */
  documentIds: readonly string[] | undefined;
}

/**
 * Payment documents: a quote's supporting documents (`POST /payment-documents`), kept in
 * `documents` with purpose PAYMENT and their bytes in the DocumentStore, in one transaction. The
 * reference in hand has no upload route for them; this one follows `/documents`' conventions. A
 * document attaches to one quote only, in the transaction that creates the quote (`attach`).
 */
@Injectable()
export class PaymentDocumentsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly store: DocumentStore,
    private readonly customers: CustomersService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async upload(platformId: string, form: MultipartForm): Promise<PaymentDocument> {
    const parsed = validateBody(PaymentDocumentUploadFields, form.fields);
    const errors = [...form.errors, ...parsed.errors];
    const file = await checkFile(form, errors);
    if (!form.file) errors.push(fieldError('file', 'file is required'));
    if (errors.length || !file) throw invalidInput(errors);
    const customerId = parseId('Customer', parsed.value.customerId)!;
    return this.tx.run(async (m) => {
      await this.customers.requireActive(m, platformId, customerId);
      const now = this.clock.now();
      const id = newUuid();
      await m.query(
        `INSERT INTO documents (id, platform_id, purpose, holder_type, holder_id, customer_id, document_type,
           file_name, content_type, size_bytes, sha256, review_status, created_at, updated_at)
         VALUES ($1, $2, 'PAYMENT', 'Customer', $3, $3, $4, $5, $6, $7, $8, 'PENDING', $9, $9)`,
        [
          id,
          platformId,
          customerId,
          parsed.value.documentType,
          file.fileName,
          file.contentType,
          file.bytes.length,
          createHash('sha256').update(file.bytes).digest('hex'),
          now,
        ],
      );
      await this.store.put(m, platformId, id, file.bytes);
      noteAuditResource(formatId('PaymentDocument', id));
      return renderPaymentDocument({
        id,
        customer_id: customerId,
        document_type: parsed.value.documentType,
        file_name: file.fileName,
        content_type: file.contentType,
        size_bytes: file.bytes.length,
        quote_id: null,
        created_at: now,
        updated_at: now,
      });
    });
  }

  async get(platformId: string, id: string): Promise<PaymentDocument> {
    return renderPaymentDocument(await this.find(this.tx.manager, platformId, id));
  }

  /** The bytes and the (sanitized) file name, for a download. */
  async content(platformId: string, id: string): Promise<{ bytes: Buffer; fileName: string }> {
    return this.tx.run(async (m) => {
      const row = await this.find(m, platformId, id);
      const bytes = await this.store.read(m, platformId, row.id);
      if (!bytes) throw notFound(id);
      return { bytes, fileName: row.file_name };
    });
  }

  /** 204; 409 PAYMENT_DOCUMENT_ALREADY_USED once attached to a quote (the quote keeps it). */
  async remove(platformId: string, id: string): Promise<void> {
    await this.tx.run(async (m) => {
      const row = await this.find(m, platformId, id, true);
      if (row.quote_id !== null) throw alreadyUsed(row);
      await this.store.remove(m, platformId, row.id);
      await m.query('DELETE FROM documents WHERE id = $1 AND platform_id = $2', [row.id, platformId]);
      noteAuditResource(formatId('PaymentDocument', row.id));
    });
  }

  /**
   * In the transaction creating a quote: the documents named exist on the platform (else 404
   * PAYMENT_DOCUMENT_NOT_FOUND), belong to the paying customer (else 400), are attached to no quote
   * yet (else 409 PAYMENT_DOCUMENT_ALREADY_USED), and fill every requirement of the purpose (else
   * 400 DOCUMENTS_REQUIRED with `details.missingRequirements`). The rows are locked FOR UPDATE in
   * id order, so two quotes racing for one document queue on it and the second sees it used.
   * Attaches them to the quote; answers their uuids.
   */
  async attach(m: EntityManager, platformId: string, quote: QuoteDocuments): Promise<string[]> {
    const requested = [...new Set(quote.documentIds ?? [])];
    const ids = requested.map((id) => parseId('PaymentDocument', id)!);
    const rows = ids.length
      ? await m.query<PaymentDocumentRow[]>(
          `SELECT ${COLUMNS} FROM documents
            WHERE platform_id = $1 AND purpose = 'PAYMENT' AND id = ANY($2::uuid[])
            ORDER BY id FOR UPDATE`,
          [platformId, ids],
        )
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.find((id) => !byId.has(id));
    if (missing !== undefined) throw notFound(missing);
    if (quote.customerId !== null) {
      const foreign = ids
        .map((id, i) => ({ i, row: byId.get(id)! }))
        .filter(({ row }) => row.customer_id !== quote.customerId);
      if (foreign.length)
        throw invalidInput(
          foreign.map(({ i }) =>
            fieldError(`documentIds[${i}]`, 'must be a payment document of the customer paying the quote'),
          ),
        );
    }
    const used = rows.find((r) => r.quote_id !== null);
    if (used) throw alreadyUsed(used);
    const requirements =
      quote.purposeOfPayment !== null
        ? (this.config.paymentDocumentRequirements.get(quote.purposeOfPayment) ?? [])
        : [];
    const unfilled = missingRequirements(
      requirements,
      ids.map((id) => byId.get(id)!.document_type),
    );
    if (unfilled.length)
      throw new ApiError(
        'DOCUMENTS_REQUIRED',
        `purposeOfPayment ${quote.purposeOfPayment} needs supporting documents: upload them (POST /payment-documents) and name them in documentIds`,
        { details: { missingRequirements: unfilled } },
      );
    if (ids.length) {
      await m.query(
        `UPDATE documents SET quote_id = $1, updated_at = $2 WHERE platform_id = $4 AND id = ANY($3::uuid[])`,
        [quote.quoteId, this.clock.now(), ids, platformId],
      );
      for (const id of ids) noteAuditResource(formatId('PaymentDocument', id));
    }
    return ids;
  }

  private async find(m: EntityManager, platformId: string, id: string, lock = false): Promise<PaymentDocumentRow> {
    const rows = await m.query<PaymentDocumentRow[]>(
      `SELECT ${COLUMNS} FROM documents WHERE id = $1 AND platform_id = $2 AND purpose = 'PAYMENT'${lock ? ' FOR UPDATE' : ''}`,
      [id, platformId],
    );
    if (!rows[0]) throw notFound(id);
    return rows[0];
  }
}
