import { Writable } from 'node:stream';
import { createRootLogger, requestContext } from '../../../src/logging/logger.js';

/** Any line logged while a request is served (not only the access line) carries its ids. */
it('lines logged inside a request carry reqId and, once authenticated, platformId', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const logger = createRootLogger('info', sink);
  const req: { id: string; principal?: { platformId: string } } = { id: 'r-1' };
  await requestContext.run(req, async () => {
    logger.info('before auth');
    await Promise.resolve();
    req.principal = { platformId: '0190' };
    logger.warn({ reqId: 'not-overridden-by-mixin?' }, 'explicit');
    logger.info('after auth');
  });
  logger.info('outside any request');
  expect(lines.map((l) => [l.msg, l.reqId, l.platformId])).toEqual([
    ['before auth', 'r-1', undefined],
    ['explicit', 'not-overridden-by-mixin?', 'Platform:0190'],
    ['after auth', 'r-1', 'Platform:0190'],
    ['outside any request', undefined, undefined],
  ]);
});
