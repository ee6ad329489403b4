import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res, StreamableFile } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { documentDownload } from '../documents/document-download.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { readMultipart } from '../common/multipart.js';
import { MAX_DOCUMENT_BYTES } from '../documents/document.types.js';
import { MultipartBody } from '../http-pipeline.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { PAYMENT_DOCUMENT_UPLOAD_SCHEMA, PaymentDocument } from './payment-document.dto.js';
import { PaymentDocumentsService } from './payment-documents.service.js';

/**
 * `/payment-documents`: a quote's supporting documents. Not in the reference in hand (it names
 * `PaymentDocument:<uuid>` ids on quotes, `DOCUMENTS_REQUIRED` and `PAYMENT_DOCUMENT_ALREADY_USED`
 * but no upload route); these follow `/documents`' conventions: multipart upload, the file served
 * only as a download.
 */
@ApiTags('Payment documents')
@ApiBasicAuth('BasicAuth')
@Controller('payment-documents')
export class PaymentDocumentsController {
  constructor(private readonly documents: PaymentDocumentsService) {}

  @ApiOperation({
    summary: 'Upload a payment document',
    operationId: 'uploadPaymentDocument',
    description:
      "multipart/form-data: the file in `file` (PDF, JPEG or PNG, decided from its bytes; at most 10 MB), `customerId` and `documentType` in the other fields. Name it in a quote's `documentIds`. Not in the reference: this service's route.",
  })
  @ApiErrors(404, 410)
  @Post()
  @MultipartBody()
  @RequirePermission('TRANSACT')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: PAYMENT_DOCUMENT_UPLOAD_SCHEMA })
  @ApiCreatedResponse({ type: PaymentDocument })
  async upload(
    @CurrentPlatform() p: PlatformPrincipal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PaymentDocument> {
    const form = await readMultipart(req, res, { maxFileBytes: MAX_DOCUMENT_BYTES });
    return this.documents.upload(p.platformId, form);
  }

  @ApiOperation({ summary: 'Get a payment document by ID', operationId: 'getPaymentDocument' })
  @ApiErrors(404)
  @Get(':documentId')
  @ApiOkResponse({ type: PaymentDocument })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('documentId', new IdPipe('PaymentDocument')) id: string,
  ): Promise<PaymentDocument> {
    return this.documents.get(p.platformId, id);
  }

  /** The file, always as a download (as `GET /documents/{documentId}/file`). */
  @ApiOperation({ summary: "Download a payment document's file", operationId: 'downloadPaymentDocument' })
  @Get(':documentId/file')
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  async download(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('documentId', new IdPipe('PaymentDocument')) id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    return documentDownload(res, await this.documents.content(p.platformId, id));
  }

  @ApiOperation({ summary: 'Delete a payment document', operationId: 'deletePaymentDocument' })
  @ApiErrors(404, 409)
  @Delete(':documentId')
  @HttpCode(204)
  @RequirePermission('TRANSACT')
  @ApiNoContentResponse({ description: 'Payment document deleted (one attached to a quote: 409)' })
  remove(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('documentId', new IdPipe('PaymentDocument')) id: string,
  ): Promise<void> {
    return this.documents.remove(p.platformId, id);
  }
}
