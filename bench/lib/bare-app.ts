import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';

@Controller()
class ConstantController {
  @Get('constant')
  constant() {
    return { status: 'ok' };
  }
}

@Module({ controllers: [ConstantController] })
class BareModule {}

/** The framework floor: a bare NestJS Express app answering a constant JSON, in this process. */
export async function startBareApp(): Promise<{ url: string; app: INestApplication }> {
  const app = await NestFactory.create(BareModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as Server).address() as { port: number };
  return { url: `http://127.0.0.1:${port}/constant`, app };
}
