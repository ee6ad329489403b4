import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard.js';
import { ConsoleSessionsService } from './console-sessions.service.js';
import { TokensController } from './tokens.controller.js';
import { AuthFailures } from './auth-failures.js';
import { TokenCache } from './token-cache.js';
import { TokensService } from './tokens.service.js';

@Module({
  controllers: [TokensController],
  providers: [
    TokensService,
    TokenCache,
    AuthFailures,
    ConsoleSessionsService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [TokensService, ConsoleSessionsService],
})
export class AuthModule {}
