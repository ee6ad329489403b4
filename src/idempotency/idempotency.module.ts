import { Global, Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyService } from './idempotency.service.js';

@Global()
@Module({
  imports: [SecretsModule],
  providers: [IdempotencyService, IdempotencyInterceptor],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
