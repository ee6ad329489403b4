import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, Public } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { EnclaveKeys } from './enclave-keys.service.js';
import {
  AccountIdQuery,
  AuthCredentialChallengeRequest,
  AuthCredentialCreateRequest,
  AuthCredentialListResponse,
  AuthSessionRefreshRequest,
  AuthCredentialVerifyRequest,
  AuthMethodResponse,
  AuthSession,
  AuthSignedRequestChallenge,
  EnclaveKeyView,
  PasskeyAuthChallenge,
  SessionListResponse,
  type AuthMethod,
} from './wallet.dto.js';
import { ApiSignedRetryChallenge, parseBody, SignedRetry, type SignedRetryHttp } from './signed-retry.http.js';
import { WalletsService } from './wallets.service.js';

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
  @ApiQuery({
    name: 'accountId',
    required: true,
    description: 'The EMBEDDED_WALLET internal account (InternalAccount:<uuid>)',
  })
  @ApiResponse({ status: 200, type: AuthCredentialListResponse })
  listCredentials(@CurrentPlatform() p: PlatformPrincipal, @Query() query: unknown): Promise<{ data: AuthMethod[] }> {
    return this.wallets.listCredentials(p.platformId, parseBody(AccountIdQuery, query).accountId);
  }

  @Post('credentials')
  @ApiOperation({ summary: 'Create an authentication credential', operationId: 'createAuthCredential' })
  @ApiBody({ type: AuthCredentialCreateRequest })
  @ApiResponse({ status: 201, type: AuthMethodResponse, description: 'Created (OTP types: a code went out)' })
  @ApiSignedRetryChallenge(
    AuthSignedRequestChallenge,
    'The wallet has credentials: stamp `payloadToSign` with a live session key and retry',
  )
  @ApiErrors(409)
  async create(
    @CurrentPlatform() p: PlatformPrincipal,
    @Body() body: unknown,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    const request = parseBody(AuthCredentialCreateRequest, body);
    return retry.answer(await this.wallets.createCredential(p.platformId, request, body, retry.headers));
  }

  @Delete('credentials/:id')
  @ApiOperation({ summary: 'Revoke an authentication credential', operationId: 'revokeAuthCredential' })
  @ApiSignedRetryChallenge(
    AuthSignedRequestChallenge,
    'Stamp `payloadToSign` with a live session of another credential of the wallet',
  )
  @ApiResponse({ status: 204, description: 'The signed retry: the credential and its sessions are revoked' })
  async revokeCredential(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    return retry.answer(await this.wallets.revokeCredential(p.platformId, id, retry.headers));
  }

  @Post('credentials/:id/challenge')
  @HttpCode(200)
  @ApiOperation({ summary: 'Re-issue an authentication credential challenge', operationId: 'challengeAuthCredential' })
  @ApiBody({ type: AuthCredentialChallengeRequest, required: false })
  @ApiResponse({ status: 200, type: AuthMethodResponse })
  @ApiErrors(409, 429)
  challenge(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<AuthMethodResponse | PasskeyAuthChallenge> {
    const request =
      body !== undefined && !(typeof body === 'object' && body !== null && Object.keys(body).length === 0)
        ? parseBody(AuthCredentialChallengeRequest, body)
        : undefined;
    return this.wallets.challenge(p.platformId, id, request?.clientPublicKey);
  }

  @Post('credentials/:id/verify')
  @ApiOperation({ summary: 'Verify an authentication credential', operationId: 'verifyAuthCredential' })
  @ApiBody({ type: AuthCredentialVerifyRequest })
  @ApiResponse({ status: 200, type: AuthSession, description: 'The signed retry: the session (no key material)' })
  @ApiSignedRetryChallenge(
    AuthSignedRequestChallenge,
    'EMAIL_OTP / SMS_OTP first leg: `payloadToSign` is the verification token, to stamp with the key sealed in the bundle',
  )
  @ApiErrors(409, 429)
  async verify(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    const request = parseBody(AuthCredentialVerifyRequest, body);
    return retry.answer(await this.wallets.verify(p.platformId, id, request, body, retry.headers));
  }

  @Get('sessions')
  @ApiOperation({ summary: 'List active sessions', operationId: 'listAuthSessions' })
  @ApiQuery({
    name: 'accountId',
    required: true,
    description: 'The EMBEDDED_WALLET internal account (InternalAccount:<uuid>)',
  })
  @ApiResponse({ status: 200, type: SessionListResponse })
  listSessions(@CurrentPlatform() p: PlatformPrincipal, @Query() query: unknown): Promise<{ data: AuthSession[] }> {
    return this.wallets.listSessions(p.platformId, parseBody(AccountIdQuery, query).accountId);
  }

  @Delete('sessions/:id')
  @ApiOperation({ summary: 'Revoke an authentication session', operationId: 'revokeAuthSession' })
  @ApiSignedRetryChallenge(
    AuthSignedRequestChallenge,
    'Challenge issued: stamp `payloadToSign` with a live session key of the wallet',
  )
  @ApiResponse({ status: 204, description: 'The signed retry: the session is revoked' })
  async revokeSession(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    return retry.answer(await this.wallets.revokeSession(p.platformId, id, retry.headers));
  }

  @Post('sessions/:id/refresh')
  @ApiOperation({ summary: 'Refresh an authentication session', operationId: 'refreshAuthSession' })
  @ApiBody({ type: AuthSessionRefreshRequest })
  @ApiResponse({ status: 201, type: AuthSession, description: 'The signed retry: a new session on the new key' })
  @ApiSignedRetryChallenge(
    AuthSignedRequestChallenge,
    "Stamp `payloadToSign` with the session's own key and retry with the same body",
  )
  async refresh(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    const request = parseBody(AuthSessionRefreshRequest, body);
    return retry.answer(
      await this.wallets.refreshSession(p.platformId, id, request.clientPublicKey, body, retry.headers),
    );
  }

  /**
   * The deployment's enclave signing key (public, not in the reference): the `enclaveQuorumPublic`
   * of every OTP target bundle and the key of every verification token, for clients to pin.
   */
  @Get('enclave-key')
  @Public()
  @ApiOperation({ summary: "The deployment's enclave signing key", operationId: 'getEnclaveKey' })
  @ApiResponse({ status: 200, type: EnclaveKeyView })
  @ApiErrors(400)
  async enclaveKey(): Promise<EnclaveKeyView> {
    return { enclaveQuorumPublic: await this.enclave.publicKey() };
  }
}
