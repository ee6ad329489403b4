import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One email as the SMTP server received it, its text body decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  raw: string;
}

/** Decodes a single-part message's body by its Content-Transfer-Encoding (7bit, quoted-printable, base64). */
function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = decodeBody(raw.slice(split + 4), headers['content-transfer-encoding']).replace(/\r\n$/, '');
  return { from, to, headers, subject: headers.subject ?? '', text, raw };
}

/**
 * A real SMTP server (`smtp-server`) on 127.0.0.1 standing in for the operator's relay: plain SMTP
 * with AUTH PLAIN/LOGIN required (`username` / `password`), so `smtp://user:pass@127.0.0.1:<port>`
 * is its `SMTP_URL`. `next({ to })` awaits the next mail to that address (each handed out once);
 * `refuse(n)` rejects the next n recipients with 550 (a relay refusing the message).
 */
export class SmtpInbox {
  private readonly unclaimed: ReceivedMail[] = [];
  private waiters: Array<{ to?: string; resolve: (mail: ReceivedMail) => void }> = [];
  private refusals = 0;
  /** Every AUTH attempt's username and whether it was accepted. */
  readonly logins: Array<{ username: string; accepted: boolean }> = [];
  private server!: SMTPServer;
  url = '';

  static async start(username = 'relay-user', password = 'relay p@ss/word'): Promise<SmtpInbox> {
    const inbox = new SmtpInbox();
    inbox.server = new SMTPServer({
      secure: false,
      hideSTARTTLS: true,
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth(auth, _session, callback) {
        const accepted = auth.username === username && auth.password === password;
        inbox.logins.push({ username: auth.username ?? '', accepted });
        if (!accepted) return callback(new Error('Invalid username or password'));
        callback(null, { user: username });
      },
      onRcptTo(address, _session, callback) {
        if (inbox.refusals > 0) {
          inbox.refusals -= 1;
          const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
          error.responseCode = 550;
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom || undefined;
          inbox.receive(
            parseMail(
              Buffer.concat(chunks).toString('utf8'),
              from?.address ?? '',
              session.envelope.rcptTo.map((r) => r.address),
            ),
          );
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => inbox.server.listen(0, '127.0.0.1', resolve));
    const { port } = inbox.server.server.address() as AddressInfo;
    inbox.url = `smtp://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    return inbox;
  }

  get pending(): readonly ReceivedMail[] {
    return this.unclaimed;
  }

  refuse(count: number): void {
    this.refusals += count;
  }

  next(match: { to?: string } = {}): Promise<ReceivedMail> {
    const index = this.unclaimed.findIndex((mail) => match.to === undefined || mail.to.includes(match.to));
    if (index >= 0) return Promise.resolve(this.unclaimed.splice(index, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ to: match.to, resolve }));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(mail: ReceivedMail): void {
    const waiter = this.waiters.find((w) => w.to === undefined || mail.to.includes(w.to));
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(mail);
    } else {
      this.unclaimed.push(mail);
    }
  }
}
