import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { CurrentPlatform, Public } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { validateBody } from '../common/validate-body.js';
import { invalidInput } from '../errors/validation-errors.js';
import { EnclaveKeys } from './enclave-keys.service.js';
import {
  AccountIdQuery,
  AuthCredentialChallengeRequest,
  AuthCredentialVerifyRequest,
  type AuthMethod,
  type AuthMethodResponse,
  type AuthSession,
  type EnclaveKeyView,
} from './wallet.dto.js';
import { retryHeaders } from './wallet-signatures.service.js';
import { WalletsService, type TwoStep } from './wallets.service.js';

function parse<T extends object>(dto: new () => T, body: unknown): T {
  const { value, errors } = validateBody(dto, body);
  if (errors.length) throw invalidInput(errors);
  return value;
}

/** Answers a two-step route: 202 with the challenge, or the route's own status and body. */
function answer<T>(res: Response, outcome: TwoStep<T>): unknown {
  res.status(outcome.status);
  return outcome.body ?? undefined;
}

/**
 * The reference's Embedded Wallet Auth (docs/embedded-wallets.md): credentials, their challenge
 * and verification (the OTP login over real HPKE), sessions on client-held keys. Routes that the
 * wallet owner must authorize answer 202 first and complete on a signed retry (WalletSignatures).
 */
@ApiTags('Embedded Wallet Auth')
@ApiBasicAuth('BasicAuth')
@Controller('auth')
export class WalletsController {
  constructor(
    private readonly wallets: WalletsService,
    private readonly enclave: EnclaveKeys,
  ) {}

  @Get('credentials')
  @ApiOperation({ summary: 'List authentication credentials', operationId: 'listAuthCredentials' })
  listCredentials(@CurrentPlatform() p: PlatformPrincipal, @Query() query: unknown): Promise<{ data: AuthMethod[] }> {
    return this.wallets.listCredentials(p.platformId, parse(AccountIdQuery, query).accountId);
  }

  @Post('credentials/:id/challenge')
  @HttpCode(200)
  @ApiOperation({ summary: 'Re-issue an authentication credential challenge', operationId: 'challengeAuthCredential' })
  @ApiBody({ type: AuthCredentialChallengeRequest, required: false })
  challenge(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<AuthMethodResponse> {
    if (body !== undefined && !(typeof body === 'object' && body !== null && Object.keys(body).length === 0))
      parse(AuthCredentialChallengeRequest, body);
    return this.wallets.challenge(p.platformId, id);
  }

  @Post('credentials/:id/verify')
  @ApiOperation({ summary: 'Verify an authentication credential', operationId: 'verifyAuthCredential' })
  @ApiBody({ type: AuthCredentialVerifyRequest })
  async verify(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers() headers: IncomingHttpHeaders,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const request = parse(AuthCredentialVerifyRequest, body);
    return answer(res, await this.wallets.verify(p.platformId, id, request, body, retryHeaders(headers)));
  }

  @Get('sessions')
  @ApiOperation({ summary: 'List active sessions', operationId: 'listAuthSessions' })
  listSessions(@CurrentPlatform() p: PlatformPrincipal, @Query() query: unknown): Promise<{ data: AuthSession[] }> {
    return this.wallets.listSessions(p.platformId, parse(AccountIdQuery, query).accountId);
  }

  @Delete('sessions/:id')
  @ApiOperation({ summary: 'Revoke an authentication session', operationId: 'revokeAuthSession' })
  async revokeSession(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Headers() headers: IncomingHttpHeaders,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    return answer(res, await this.wallets.revokeSession(p.platformId, id, retryHeaders(headers)));
  }

  /**
   * The deployment's enclave signing key (public, not in the reference): the `enclaveQuorumPublic`
   * of every OTP target bundle and the key of every verification token, for clients to pin.
   */
  @Get('enclave-key')
  @Public()
  @ApiOperation({ summary: "The deployment's enclave signing key", operationId: 'getEnclaveKey' })
  async enclaveKey(): Promise<EnclaveKeyView> {
    return { enclaveQuorumPublic: await this.enclave.publicKey() };
  }
}
