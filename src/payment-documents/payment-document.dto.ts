import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, IsArray, Matches } from 'class-validator';
import { idPattern } from '../common/ids.js';
import { EnumField, IdField, presence } from '../common/validation.js';
import { ACCEPTED_CONTENT_TYPES } from '../documents/document.types.js';
import { PAYMENT_DOCUMENT_TYPES } from '../config/payment-document-requirements.js';

/** At most this many documents on one quote. */
export const MAX_QUOTE_DOCUMENTS = 20;

/** The metadata fields of POST /payment-documents (multipart: the file is in `file`). */
export class PaymentDocumentUploadFields {
  @IdField('Customer', { description: 'The customer paying (the quote’s source customer)' })
  customerId: string;

  @EnumField(PAYMENT_DOCUMENT_TYPES)
  documentType: string;
}

/** `documentIds` of a QuoteRequest: PaymentDocument ids (the spec's `array of PaymentDocument:<uuid>`). */
export function DocumentIdsField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: [String],
      maxItems: MAX_QUOTE_DOCUMENTS,
      items: { type: 'string', pattern: idPattern('PaymentDocument') },
      description:
        "Payment documents (POST /payment-documents) supporting the quote's purposeOfPayment; each attaches to this quote only",
    }),
    ...presence(false, false),
    IsArray({ message: '$property must be an array' }),
    ArrayMaxSize(MAX_QUOTE_DOCUMENTS, { message: `$property must list at most ${MAX_QUOTE_DOCUMENTS} documents` }),
    Matches(new RegExp(idPattern('PaymentDocument')), {
      each: true,
      message: '$property must hold PaymentDocument ids (PaymentDocument:<uuid>)',
    }),
  );
}

export class PaymentDocument {
  @ApiProperty({ example: 'PaymentDocument:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000002' }) customerId: string;
  @ApiProperty({ enum: PAYMENT_DOCUMENT_TYPES }) documentType: string;
  @ApiProperty({ description: 'The uploaded file name, sanitized (metadata only)' }) fileName: string;
  @ApiProperty({ enum: ACCEPTED_CONTENT_TYPES, description: 'Decided from the bytes' }) contentType: string;
  @ApiProperty({ description: 'File size in bytes' }) fileSize: number;
  @ApiPropertyOptional({ description: 'The quote it is attached to (a document attaches to one quote only)' })
  quoteId?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** OpenAPI request body (multipart/form-data). */
export const PAYMENT_DOCUMENT_UPLOAD_SCHEMA = {
  type: 'object' as const,
  required: ['file', 'customerId', 'documentType'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'The document file (PDF, JPEG, or PNG, max 10 MB)' },
    customerId: { type: 'string', pattern: idPattern('Customer') },
    documentType: { type: 'string', enum: [...PAYMENT_DOCUMENT_TYPES] },
  },
};
