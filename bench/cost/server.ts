/**
 * The server side of `bench/cost/run.ts`: one process serving either the real app (`app`; `app-no-audit`
 * without the audit trail's writes, for `--audit`) or the bare NestJS app (`bare`), so its CPU (or, under callgrind, its instructions) is that server's
 * alone. Tells the parent its URLs over IPC, answers `usage` with `process.cpuUsage()`, records a
 * V8 CPU profile between `profile-start` and `profile-stop <file>`, and stops on `stop`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startBareApp } from '../lib/bare-app.js';
import { benchCards } from '../suites/card-authorizations.js';
import { benchPlatform, BenchContext, scratchDatabase, startBenchApp } from '../support.js';

export interface ServerReady {
  urls: Record<string, string>;
  authorization?: string;
}

const send = (message: unknown) => process.send!(message);

async function main(): Promise<void> {
  const kind = process.argv[2];
  let stop: () => Promise<void>;
  if (kind === 'bare') {
    const bare = await startBareApp();
    stop = () => bare.app.close();
    send({ urls: { constant: bare.url } } satisfies ServerReady);
  } else {
    const adminUrl = process.env.DATABASE_URL;
    const scratch = adminUrl ? await scratchDatabase(adminUrl, 'cost') : null;
    const audit = kind !== 'app-no-audit'; // 'app-traced' is the app, started with the tracing preload
    const app = await startBenchApp(scratch?.url, { audit });
    const platform = await benchPlatform(app);
    // One ACTIVE card for the PATCH path (a change: with its audit event, or without for the comparison).
    const [cardId] = await benchCards({ app, platform } as BenchContext, 1);
    const list = await fetch(`${app.baseUrl}/tokens`, { headers: { authorization: platform.authorization } });
    const { data } = (await list.json()) as { data: Array<{ id: string }> };
    stop = async () => {
      await app.close();
      await scratch?.drop();
    };
    send({
      urls: {
        token: `${app.baseUrl}/tokens/${data[0].id}`,
        healthz: `${app.origin}/healthz`,
        patchCard: `${app.baseUrl}/cards/${cardId}`,
      },
      authorization: platform.authorization,
    } satisfies ServerReady);
  }
  const session = new Session();
  process.on('message', (message: string) => {
    if (message === 'usage') send({ usage: process.cpuUsage() });
    if (message === 'profile-start') {
      session.connect();
      void session
        .post('Profiler.enable')
        .then(() => session.post('Profiler.start'))
        .then(() => send({ profiling: true }));
    }
    if (message.startsWith('profile-stop ')) {
      void session.post('Profiler.stop').then(({ profile }) => {
        writeFileSync(message.slice('profile-stop '.length), JSON.stringify(profile));
        session.disconnect();
        send({ profiling: false });
      });
    }
    if (message === 'stop') void stop().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
