import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '../common/pagination.js';
import { EnumField, StringField } from '../common/validation.js';
import { CountryField, Text } from '../customers/customer-fields.js';
import { ACCEPTED_CONTENT_TYPES, DOCUMENT_REJECTION_CODES, DOCUMENT_SIDES, DOCUMENT_TYPES } from './document.types.js';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** A document holder: a Customer or a BeneficialOwner id. */
export const HOLDER_PATTERN = new RegExp(`^(Customer|BeneficialOwner):${UUID}$`);

/** The metadata fields of POST /documents (multipart: the file is in `file`). */
export class DocumentUploadFields {
  @StringField({ pattern: HOLDER_PATTERN, format: 'Customer or BeneficialOwner id' })
  documentHolder: string;

  @EnumField(DOCUMENT_TYPES)
  documentType: string;

  @EnumField(DOCUMENT_SIDES, { required: false })
  side?: string;

  @CountryField({ description: 'Country that issued the document (ISO 3166-1 alpha-2)' })
  country: string;

  @Text({ required: false, max: 64, description: 'Document identification number (sandbox: REJECT_<code> rejects it)' })
  documentNumber?: string;

  @Text({ required: false, max: 255 })
  issuingAuthority?: string;
}

/** The metadata fields of PUT /documents/{id}: each optional (the file too), at least one given. */
export class DocumentReplaceFields {
  @EnumField(DOCUMENT_TYPES, { required: false })
  documentType?: string;

  @EnumField(DOCUMENT_SIDES, { required: false })
  side?: string;

  @CountryField({ required: false })
  country?: string;

  @Text({ required: false, max: 64 })
  documentNumber?: string;

  @Text({ required: false, max: 255 })
  issuingAuthority?: string;
}

export class ListDocumentsQuery extends PageQuery {
  @StringField({ required: false, pattern: HOLDER_PATTERN, format: 'Customer or BeneficialOwner id' })
  documentHolder?: string;
}

export class Document {
  @ApiProperty({ example: 'Document:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty({ description: 'A Customer or BeneficialOwner id' }) documentHolder: string;
  @ApiProperty({ enum: DOCUMENT_TYPES }) documentType: string;
  @ApiPropertyOptional({ enum: DOCUMENT_SIDES }) side?: string;
  @ApiProperty() country: string;
  @ApiPropertyOptional() documentNumber?: string;
  @ApiPropertyOptional() issuingAuthority?: string;
  @ApiProperty({ description: 'The uploaded file name, sanitized (metadata only)' }) fileName: string;
  @ApiProperty({ enum: ACCEPTED_CONTENT_TYPES, description: 'Decided from the bytes' }) contentType: string;
  @ApiProperty({ description: 'File size in bytes' }) fileSize: number;
  @ApiProperty({ enum: ['PENDING', 'ACCEPTED', 'REJECTED'], description: 'Review of the document' })
  reviewStatus: string;
  @ApiPropertyOptional({ enum: DOCUMENT_REJECTION_CODES, description: 'Why review rejected it' })
  rejectionCode?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

const metadata = {
  documentType: { type: 'string', enum: [...DOCUMENT_TYPES] },
  side: { type: 'string', enum: [...DOCUMENT_SIDES] },
  country: { type: 'string', pattern: '^[A-Z]{2}$', example: 'US' },
  documentNumber: { type: 'string', maxLength: 64 },
  issuingAuthority: { type: 'string', maxLength: 255 },
};
const file = { type: 'string', format: 'binary', description: 'The document file (PDF, JPEG, or PNG, max 10 MB)' };

/** OpenAPI request bodies (multipart/form-data). */
export const DOCUMENT_UPLOAD_SCHEMA = {
  type: 'object' as const,
  required: ['file', 'documentHolder', 'documentType', 'country'],
  properties: { file, documentHolder: { type: 'string', pattern: HOLDER_PATTERN.source }, ...metadata },
};
export const DOCUMENT_REPLACE_SCHEMA = {
  type: 'object' as const,
  properties: { file, ...metadata },
};
