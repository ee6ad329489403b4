import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import {
  challengeUuid,
  customerIdParam,
  parseBody,
  RecordSecurityEventRequest,
  ScaFactorConfirmRequest,
  ScaFactorEnrollRequest,
  ScaLoginCompleteRequest,
  ScaLoginStartRequest,
  ScaProofRequest,
  TwoFactorResetStartRequest,
} from './sca.dto.js';
import { BeneficiaryTrustService } from './beneficiary-trust.service.js';
import { ScaService } from './sca.service.js';

/**
 * Strong Customer Authentication (reference `/sca/*`): factors, login sessions, security events,
 * factor resets. Each answers 409 for a customer outside the SCA regions (docs/sca.md).
 */
@ApiTags('Strong Customer Authentication')
@ApiBasicAuth('BasicAuth')
@Controller('sca')
export class ScaController {
  constructor(private readonly sca: ScaService) {}

  @Get('factors')
  @ApiOperation({ summary: 'List enrolled SCA factors', operationId: 'listScaFactors' })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query('customerId') customerId: unknown) {
    return this.sca.listFactors(p.platformId, customerIdParam(customerId));
  }

  @Post('factors')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start SCA factor enrollment', operationId: 'startScaFactorEnrollment' })
  @ApiBody({ type: ScaFactorEnrollRequest })
  enroll(@CurrentPlatform() p: PlatformPrincipal, @Query('customerId') customerId: unknown, @Body() body: unknown) {
    const id = customerIdParam(customerId);
    return this.sca.startEnrollment(p.platformId, id, parseBody(ScaFactorEnrollRequest, body).type);
  }

  @Post('factors/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm SCA factor enrollment', operationId: 'confirmScaFactorEnrollment' })
  @ApiBody({ type: ScaFactorConfirmRequest })
  confirm(@CurrentPlatform() p: PlatformPrincipal, @Query('customerId') customerId: unknown, @Body() body: unknown) {
    const id = customerIdParam(customerId);
    const b = parseBody(ScaFactorConfirmRequest, body);
    return this.sca.confirmEnrollment(
      p.platformId,
      id,
      b.type === 'TOTP'
        ? { type: 'TOTP', secret: b.secret!, code: b.code! }
        : { type: 'PASSKEY', origin: b.origin!, credential: b.credential! },
    );
  }

  @Post('factors/reset')
  @HttpCode(201)
  @ApiOperation({ summary: 'Start a 2FA reset', operationId: 'startTwoFactorReset' })
  @ApiBody({ type: TwoFactorResetStartRequest })
  startReset(@CurrentPlatform() p: PlatformPrincipal, @Query('customerId') customerId: unknown, @Body() body: unknown) {
    const id = customerIdParam(customerId);
    return this.sca.startReset(p.platformId, id, parseBody(TwoFactorResetStartRequest, body).factor);
  }

  @Get('factors/reset/:resetId')
  @ApiOperation({ summary: 'Get 2FA reset status', operationId: 'getTwoFactorResetStatus' })
  resetStatus(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query('customerId') customerId: unknown,
    @Param('resetId') resetId: string,
  ) {
    return this.sca.resetStatus(p.platformId, customerIdParam(customerId), resetId);
  }

  @Post('factors/reset/:resetId/complete')
  @HttpCode(204)
  @ApiOperation({ summary: 'Complete a 2FA reset', operationId: 'completeTwoFactorReset' })
  async completeReset(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query('customerId') customerId: unknown,
    @Param('resetId') resetId: string,
  ): Promise<void> {
    await this.sca.completeReset(p.platformId, customerIdParam(customerId), resetId);
  }

  @Delete('factors/:credentialId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an enrolled SCA factor', operationId: 'deleteScaFactor' })
  async delete(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query('customerId') customerId: unknown,
    @Param('credentialId') credentialId: string,
  ): Promise<void> {
    await this.sca.deleteFactor(p.platformId, customerIdParam(customerId), credentialId);
  }

  @Post('login/start')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start an SCA login', operationId: 'startScaLogin' })
  @ApiBody({ type: ScaLoginStartRequest })
  loginStart(@CurrentPlatform() p: PlatformPrincipal, @Query('customerId') customerId: unknown, @Body() body: unknown) {
    const id = customerIdParam(customerId);
    return this.sca.startLogin(p.platformId, id, parseBody(ScaLoginStartRequest, body).factor);
  }

  @Post('login/complete')
  @HttpCode(200)
  @ApiOperation({ summary: 'Complete an SCA login', operationId: 'completeScaLogin' })
  @ApiBody({ type: ScaLoginCompleteRequest })
  loginComplete(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query('customerId') customerId: unknown,
    @Body() body: unknown,
  ) {
    const id = customerIdParam(customerId);
    const b = parseBody(ScaLoginCompleteRequest, body);
    return this.sca.completeLogin(p.platformId, id, { ...b, challengeId: challengeUuid(b.challengeId) });
  }

  @Post('record-event')
  @HttpCode(200)
  @ApiOperation({ summary: 'Record a security event', operationId: 'recordSecurityEvent' })
  @ApiBody({ type: RecordSecurityEventRequest })
  recordEvent(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query('customerId') customerId: unknown,
    @Body() body: unknown,
  ) {
    const id = customerIdParam(customerId);
    return this.sca.recordEvent(p.platformId, id, parseBody(RecordSecurityEventRequest, body).eventType);
  }
}

/** Trusted beneficiaries (reference `/customers/external-accounts/{id}/trust|untrust[/confirm]`). */
@ApiTags('Strong Customer Authentication')
@ApiBasicAuth('BasicAuth')
@Controller('customers/external-accounts')
export class BeneficiaryTrustController {
  constructor(private readonly trust: BeneficiaryTrustService) {}

  @Post(':externalAccountId/trust')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start trusting a beneficiary', operationId: 'startBeneficiaryTrust' })
  startTrust(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
  ) {
    return this.trust.start(p.platformId, id, true);
  }

  @Post(':externalAccountId/trust/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm trusting a beneficiary', operationId: 'confirmBeneficiaryTrust' })
  @ApiBody({ type: ScaProofRequest })
  confirmTrust(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
    @Body() body: unknown,
  ) {
    const b = parseBody(ScaProofRequest, body);
    return this.trust.confirm(p.platformId, id, true, challengeUuid(b.challengeId), b);
  }

  @Post(':externalAccountId/untrust')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start untrusting a beneficiary', operationId: 'startBeneficiaryUntrust' })
  startUntrust(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
  ) {
    return this.trust.start(p.platformId, id, false);
  }

  @Post(':externalAccountId/untrust/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm untrusting a beneficiary', operationId: 'confirmBeneficiaryUntrust' })
  @ApiBody({ type: ScaProofRequest })
  confirmUntrust(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
    @Body() body: unknown,
  ) {
    const b = parseBody(ScaProofRequest, body);
    return this.trust.confirm(p.platformId, id, false, challengeUuid(b.challengeId), b);
  }
}
