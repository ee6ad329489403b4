import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBasicAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { streamMultipart } from '../common/multipart.js';
import { MultipartBody } from '../http-pipeline.js';
import { BulkImportService, type BulkCustomerImportJob as JobView } from './bulk-import.service.js';

/** The largest CSV accepted: 100 MB (a 100,000-row file is about 15 MB). */
export const MAX_CSV_BYTES = 100 * 1024 * 1024;

class BulkCustomerImportJobAccepted {
  @ApiProperty({ example: 'Job:019542f5-b3e7-1d02-0000-000000000006' }) jobId: string;
  @ApiProperty({ enum: ['PENDING', 'PROCESSING'] }) status: string;
}

class BulkImportProgress {
  @ApiProperty() total: number;
  @ApiProperty() processed: number;
  @ApiProperty() successful: number;
  @ApiProperty() failed: number;
}

class BulkCustomerImportErrorEntry {
  @ApiProperty({ description: "The row's platformCustomerId, or its row number when it has none" })
  correlationId: string;
  @ApiProperty() code: string;
  @ApiProperty() message: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) details?: Record<string, unknown>;
}

class BulkCustomerImportJob {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] }) status: string;
  @ApiProperty({ type: BulkImportProgress }) progress: BulkImportProgress;
  @ApiProperty({ type: [BulkCustomerImportErrorEntry], description: 'The first 1,000 failed rows' })
  errors: BulkCustomerImportErrorEntry[];
  @ApiPropertyOptional({ format: 'date-time' }) completedAt?: string;
}

@ApiTags('Customers')
@ApiBasicAuth('BasicAuth')
@Controller('customers/bulk')
export class BulkImportController {
  constructor(private readonly imports: BulkImportService) {}

  @ApiOperation({
    summary: 'Upload customers via CSV file',
    operationId: 'uploadCustomersCsv',
    description:
      'multipart/form-data, the CSV in `file` (at most 100 MB), the reference columns. Parsed as it streams in; imported in the background (GET /customers/bulk/jobs/{jobId}, BULK_UPLOAD.COMPLETED).',
  })
  @Post('csv')
  @HttpCode(202)
  @MultipartBody()
  @RequirePermission('MANAGE')
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'CSV file containing customer information' },
      },
    },
  })
  @ApiAcceptedResponse({ type: BulkCustomerImportJobAccepted })
  upload(
    @CurrentPlatform() p: PlatformPrincipal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ jobId: string; status: 'PENDING' }> {
    return streamMultipart(req, res, { maxFileBytes: MAX_CSV_BYTES }, (file) => this.imports.stage(p.platformId, file));
  }

  @ApiOperation({ summary: 'Get bulk import job status', operationId: 'getBulkCustomerImportJob' })
  @Get('jobs/:jobId')
  @ApiOkResponse({ type: BulkCustomerImportJob })
  get(@CurrentPlatform() p: PlatformPrincipal, @Param('jobId', new IdPipe('Job')) jobId: string): Promise<JobView> {
    return this.imports.get(p.platformId, jobId);
  }
}
