import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** OpenAPI 3 document generated from the controllers and DTOs, plus a browsable UI; both public. */
export function setupOpenApi(app: INestApplication, version: string): void {
  const config = new DocumentBuilder()
    .setTitle('Payments Platform API')
    .setDescription('External accounts, agents, cards and signed webhooks. Errors are `{code, reason, details}`.')
    .setVersion(version)
    .addServer(`/${version}`)
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'BasicAuth')
    .addBearerAuth({ type: 'http', scheme: 'bearer' }, 'AgentAuth')
    .build();
  const document = SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: `${version}/openapi.json`,
    raw: ['json'],
  });
}
