import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPlatform, Public, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { SandboxVerificationOutcome, Verification } from './verification.dto.js';
import { invalidLink, VerificationsService } from './verifications.service.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/** A token from the URL: base64url only (anything else is refused before any lookup). */
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** The verification provider's side, in sandbox: decide an outcome, and the hosted KYC page. Mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@Controller('sandbox')
export class VerificationsSandboxController {
  constructor(private readonly verifications: VerificationsService) {}

  @ApiOperation({
    summary: "Decide a verification's outcome",
    operationId: 'sandboxCompleteVerification',
    description:
      'APPROVED or REJECTED sets the customer (and its beneficial owners) status; PENDING_MANUAL_REVIEW waits.',
  })
  @ApiBasicAuth('BasicAuth')
  @ApiErrors(409, 410)
  @Post('verifications/:verificationId/complete')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOkResponse({ type: Verification })
  complete(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('verificationId', new IdPipe('Verification')) id: string,
    @Body() body: SandboxVerificationOutcome,
  ): Promise<Verification> {
    return this.verifications.complete(p.platformId, id, body.verificationStatus);
  }

  @ApiOperation({ summary: 'The hosted KYC page (sandbox)', operationId: 'sandboxKycPage' })
  @Public()
  @Get('kyc/:token')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The hosted page', schema: { type: 'string' } })
  async show(@Param('token') token: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const { customer } = await this.verifications.openKycLink(this.token(token));
    // set only now: an error is answered as JSON like every other
    res.type('html').setHeader('Cache-Control', 'no-store');
    const check = customer.customerType === 'BUSINESS' ? 'business (KYB)' : 'identity (KYC)';
    const action = (decision: string, label: string) =>
      `<form method="post" action="${escapeHtml(token)}/${decision}"><button type="submit">${label}</button></form>`;
    return page(
      'Sandbox verification',
      `<p>Sandbox stand-in for the verification provider: decide this customer's ${check} check.</p>` +
        action('approve', 'Approve') +
        action('reject', 'Reject'),
    );
  }

  @ApiOperation({ summary: 'Approve from the hosted KYC page (sandbox)', operationId: 'sandboxKycApprove' })
  @Public()
  @Post('kyc/:token/approve')
  @ApiOkResponse({ description: 'Redirects to the redirectUri, or shows that the check is done' })
  approve(@Param('token') token: string, @Res() res: Response): Promise<void> {
    return this.finish(token, 'APPROVED', res);
  }

  @ApiOperation({ summary: 'Reject from the hosted KYC page (sandbox)', operationId: 'sandboxKycReject' })
  @Public()
  @Post('kyc/:token/reject')
  @ApiOkResponse({ description: 'Redirects to the redirectUri, or shows that the check is done' })
  reject(@Param('token') token: string, @Res() res: Response): Promise<void> {
    return this.finish(token, 'REJECTED', res);
  }

  private async finish(token: string, outcome: 'APPROVED' | 'REJECTED', res: Response): Promise<void> {
    const { redirectUri } = await this.verifications.completeKycLink(this.token(token), outcome);
    if (redirectUri) {
      res.redirect(303, redirectUri);
      return;
    }
    res
      .status(200)
      .type('html')
      .send(page('Verification complete', `<p>Outcome: ${outcome}.</p>`));
  }

  private token(token: string): string {
    if (!TOKEN.test(token)) throw invalidLink();
    return token;
  }
}
