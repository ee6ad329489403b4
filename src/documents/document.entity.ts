import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DocumentPurpose, DocumentReviewStatus, HolderType } from './document.types.js';

/** A document's metadata; its bytes are in the document store (src/documents/document-store.ts). */
@Entity('documents')
export class DocumentEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  /** VERIFICATION (KYC/KYB documents) or PAYMENT (a quote's supporting document). */
  @Column('text')
  purpose: DocumentPurpose;

  @Column('text', { name: 'holder_type' })
  holderType: HolderType;

  @Column('uuid', { name: 'holder_id' })
  holderId: string;

  /** The customer the document belongs to: the holder, or the beneficial owner's business. */
  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text', { name: 'document_type' })
  documentType: string;

  @Column('text', { nullable: true })
  side: string | null;

  @Column('text')
  country: string;

  @Column('text', { name: 'document_number', nullable: true })
  documentNumber: string | null;

  @Column('text', { name: 'issuing_authority', nullable: true })
  issuingAuthority: string | null;

  /** Sanitized: metadata only, never a path. */
  @Column('text', { name: 'file_name' })
  fileName: string;

  /** Decided from the bytes (file-type), never from the upload's declared type or name. */
  @Column('text', { name: 'content_type' })
  contentType: string;

  @Column('integer', { name: 'size_bytes' })
  sizeBytes: number;

  @Column('text')
  sha256: string;

  @Column('text', { name: 'review_status' })
  reviewStatus: DocumentReviewStatus;

  @Column('text', { name: 'rejection_code', nullable: true })
  rejectionCode: string | null;

  /** Set when a verification that needed it was submitted: DELETE is then 409. */
  @Column('timestamptz', { name: 'submitted_at', nullable: true })
  submittedAt: Date | null;

  @Column('uuid', { name: 'quote_id', nullable: true })
  quoteId: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
