import { RequiresPort } from '../common/requires-port.js';
import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, StreamableFile } from '@nestjs/common';
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
import { documentDownload } from './document-download.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { readMultipart } from '../common/multipart.js';
import { type Page, PageOf } from '../common/pagination.js';
import { MultipartBody } from '../http-pipeline.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { Document, DOCUMENT_REPLACE_SCHEMA, DOCUMENT_UPLOAD_SCHEMA, ListDocumentsQuery } from './document.dto.js';
import { MAX_DOCUMENT_BYTES } from './document.types.js';
import { DocumentsService } from './documents.service.js';

const DocumentListResponse = PageOf(Document, 'DocumentListResponse');

@ApiTags('Documents')
@ApiBasicAuth('BasicAuth')
@Controller('documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @ApiOperation({
    summary: 'Upload a document',
    operationId: 'uploadDocument',
    description:
      'multipart/form-data: the file in `file` (PDF, JPEG or PNG, decided from its bytes; at most 10 MB), metadata in the other fields.',
  })
  @ApiErrors(409, 410)
  @Post()
  @RequiresPort('DOCUMENT_STORE')
  @MultipartBody()
  @RequirePermission('MANAGE')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: DOCUMENT_UPLOAD_SCHEMA })
  @ApiCreatedResponse({ type: Document })
  async upload(
    @CurrentPlatform() p: PlatformPrincipal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Document> {
    const form = await readMultipart(req, res, { maxFileBytes: MAX_DOCUMENT_BYTES });
    return this.documents.upload(p.platformId, form);
  }

  @ApiOperation({ summary: 'List documents', operationId: 'listDocuments' })
  @Get()
  @ApiOkResponse({ type: DocumentListResponse })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListDocumentsQuery): Promise<Page<Document>> {
    return this.documents.list(p.platformId, query);
  }

  @ApiOperation({ summary: 'Get a document by ID', operationId: 'getDocument' })
  @Get(':documentId')
  @ApiOkResponse({ type: Document })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('documentId', new IdPipe('Document')) id: string,
  ): Promise<Document> {
    return this.documents.get(p.platformId, id);
  }

  /**
   * The file, always as a download: `application/octet-stream`, `Content-Disposition: attachment`,
   * `nosniff` and a sandboxing CSP, so a browser never renders it (a PDF with HTML inside stays inert).
   */
  @ApiOperation({ summary: "Download a document's file", operationId: 'downloadDocument' })
  @Get(':documentId/file')
  @RequiresPort('DOCUMENT_STORE')
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  async download(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('documentId', new IdPipe('Document')) id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    return documentDownload(res, await this.documents.content(p.platformId, id));
  }

  @ApiOperation({
    summary: 'Replace a document',
    operationId: 'replaceDocument',
    description: 'multipart/form-data: a new file and/or new metadata (each field optional).',
  })
  @ApiErrors(409)
  @Put(':documentId')
  @RequiresPort('DOCUMENT_STORE')
  @MultipartBody()
  @RequirePermission('MANAGE')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: DOCUMENT_REPLACE_SCHEMA })
  @ApiOkResponse({ type: Document })
  async replace(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('documentId', new IdPipe('Document')) id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Document> {
    const form = await readMultipart(req, res, { maxFileBytes: MAX_DOCUMENT_BYTES });
    return this.documents.replace(p.platformId, id, form);
  }

  @ApiOperation({ summary: 'Delete a document', operationId: 'deleteDocument' })
  @ApiErrors(409)
  @Delete(':documentId')
  @HttpCode(204)
  @RequirePermission('MANAGE')
  @ApiNoContentResponse({ description: 'Document deleted' })
  remove(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('documentId', new IdPipe('Document')) id: string,
  ): Promise<void> {
    return this.documents.remove(p.platformId, id);
  }
}
