import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ConsoleSessionController } from './console-session.controller.js';

/**
 * The operator console's server side (CONSOLE=true): sign-in, who-am-I and sign-out. Its pages
 * are static files (console-static.ts); the rest of what it does is the REST API itself.
 */
@Module({
  imports: [AuthModule],
  controllers: [ConsoleSessionController],
})
export class ConsoleModule {}
