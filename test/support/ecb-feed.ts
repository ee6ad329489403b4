import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The recorded ECB publication (test/fixtures/providers/ecb/): 28 June 2024, a Friday. */
export const ECB_FIXTURE = readFileSync(
  join(process.cwd(), 'test/fixtures/providers/ecb/eurofxref-daily-2024-06-28.xml'),
  'utf8',
);

/**
 * A real HTTP server on 127.0.0.1 standing in for the ECB's `eurofxref-daily.xml`: pass
 * `{ ECB_RATES_URL: feed.url }`. It serves `document` (the recorded publication unless a test swaps
 * it); `failWith(status)` makes it answer an error page; `stop()` makes it unreachable. `requests`
 * counts the fetches.
 */
export class EcbFeed {
  document = ECB_FIXTURE;
  requests = 0;
  private status = 200;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<EcbFeed> {
    const holder: { feed?: EcbFeed } = {};
    const server = http.createServer((req, res) => {
      const feed = holder.feed!;
      feed.requests += 1;
      if (feed.status !== 200) {
        res
          .writeHead(feed.status, { 'content-type': 'text/html' })
          .end('<html><body>Service Unavailable</body></html>');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/xml' }).end(feed.document);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.feed = new EcbFeed(server, `http://127.0.0.1:${port}/stats/eurofxref/eurofxref-daily.xml`);
    return holder.feed;
  }

  failWith(status: number): void {
    this.status = status;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
