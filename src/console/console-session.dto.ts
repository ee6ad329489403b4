import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '../common/validation.js';
import type { Permission } from '../auth/api-token.entity.js';

/** `POST /console/api/session`: an API token's credentials. */
export class ConsoleSignInRequest {
  @StringField({ minLength: 1, maxLength: 256 })
  clientId: string;

  @StringField({ minLength: 1, maxLength: 512 })
  clientSecret: string;
}

/** Who is signed in, what the console may show, and the CSRF token for writes (kept in memory only). */
export class ConsoleSessionView {
  @ApiProperty() platformId: string;
  @ApiProperty() token: { id: string; name: string; permissions: Permission[] };
  @ApiProperty({ description: 'Send it as X-CSRF-Token on every write' }) csrfToken: string;
  @ApiProperty({ description: 'Whether the sandbox routes are on' }) sandbox: boolean;
  @ApiProperty({
    description:
      'SANDBOX=true on PostgreSQL (DATABASE_URL): the console shows a banner (nothing reaches the outside world)',
  })
  sandboxOnDatabase: boolean;
  @ApiProperty() idleTimeoutSeconds: number;
}
