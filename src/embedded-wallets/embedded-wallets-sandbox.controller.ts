import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators.js';
import { StringField } from '../common/validation.js';
import { validateBody } from '../common/validate-body.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { SandboxOidc } from './sandbox-oidc.js';

export class SandboxIdTokenRequest {
  @StringField({ minLength: 1, maxLength: 255, description: 'The subject (the identity provider user id)' })
  sub: string;

  @StringField({ minLength: 1, maxLength: 255, description: 'The audience (the OAuth client id)' })
  aud: string;

  @StringField({ required: false, maxLength: 255, description: 'The email claim' })
  email?: string;

  @StringField({
    required: false,
    maxLength: 128,
    description: 'The nonce (verify: sha256 hex of the clientPublicKey)',
  })
  nonce?: string;
}

class SandboxIdTokenResponse {
  @ApiProperty() idToken: string;
  @ApiPropertyOptional() issuer?: string;
}

/**
 * The sandbox OIDC issuer (SANDBOX=true only): its JWKS (public) and id tokens on demand, for
 * OAUTH credentials in tests and walk-throughs (docs/embedded-wallets.md).
 */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox/oauth')
export class EmbeddedWalletsSandboxController {
  constructor(private readonly oidc: SandboxOidc) {}

  @Get('jwks')
  @Public()
  @ApiOperation({ summary: "The sandbox OIDC issuer's JWKS", operationId: 'sandboxOidcJwks' })
  @ApiResponse({
    status: 200,
    description: 'A JWKS: `{keys: [{kty: EC, crv: P-256, x, y, kid, alg: ES256, use: sig}]}`',
  })
  @ApiErrors(400)
  jwks() {
    return this.oidc.jwks();
  }

  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mint a sandbox OIDC id token', operationId: 'sandboxMintIdToken' })
  @ApiBody({ type: SandboxIdTokenRequest })
  @ApiResponse({ status: 200, type: SandboxIdTokenResponse })
  async token(@Body() body: unknown): Promise<SandboxIdTokenResponse> {
    const { value, errors } = validateBody(SandboxIdTokenRequest, body);
    if (errors.length) throw invalidInput(errors);
    return { idToken: await this.oidc.mint(value) };
  }
}
