import * as http from 'node:http';
/**
 * A real HTTP server on 127.0.0.1 that records every webhook POST and answers from a script
 * (queued responses first, then the default). Tests await the n-th request instead of sleeping.
 * `stop()` then `start()` again brings it down and up on the same port.
 */
export class WebhookReceiver {
    received = [];
    script = [];
    fallback = { status: 200, body: '{"received":true}' };
    waiters = [];
    server = null;
    port = 0;
    static async start() {
        const receiver = new WebhookReceiver();
        await receiver.start();
        return receiver;
    }
    get url() {
        return `http://127.0.0.1:${this.port}/webhooks`;
    }
    /** Answers the next requests with these, in order; then the default. */
    respondWith(...responses) {
        this.script.push(...responses);
        return this;
    }
    setDefault(response) {
        this.fallback = response;
        return this;
    }
    /** Forgets what was received and scripted (e.g. after a test's setup). */
    reset() {
        this.received.length = 0;
        this.script.length = 0;
        this.waiters = [];
        return this;
    }
    /** Resolves with the first `count` requests once that many have arrived. */
    async waitFor(count) {
        if (this.received.length < count) {
            await new Promise((resolve) => this.waiters.push({ count, resolve }));
        }
        return this.received.slice(0, count);
    }
    /** The n-th request (1-based), once it has arrived. */
    async nth(n) {
        return (await this.waitFor(n))[n - 1];
    }
    /** Listens (again, on the same port after a stop). */
    async start() {
        const server = http.createServer((req, res) => this.handle(req, res));
        await new Promise((resolve, reject) => {
            server.once('error', reject);
            server.listen(this.port, '127.0.0.1', () => resolve());
        });
        this.port = server.address().port;
        this.server = server;
    }
    /** Stops listening and drops open connections: the receiver is down. */
    async stop() {
        const server = this.server;
        this.server = null;
        if (!server)
            return;
        await new Promise((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
        });
    }
    handle(req, res) {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
            const rawBody = Buffer.concat(chunks).toString('utf8');
            let body;
            try {
                body = JSON.parse(rawBody);
            }
            catch {
                body = { id: '', type: '', timestamp: '', data: {} };
            }
            const response = this.script.shift() ?? this.fallback;
            this.received.push({
                method: req.method ?? '',
                path: req.url ?? '',
                headers: req.headers,
                rawBody,
                body,
                receivedAt: performance.now(),
            });
            const ready = this.waiters.filter((w) => w.count <= this.received.length);
            this.waiters = this.waiters.filter((w) => w.count > this.received.length);
            ready.forEach((w) => w.resolve());
            void this.answer(res, response);
        });
    }
    async answer(res, response) {
        if (response.after)
            await response.after.catch(() => undefined);
        if (response.delayMs)
            await new Promise((resolve) => setTimeout(resolve, response.delayMs));
        if (res.destroyed)
            return;
        res.writeHead(response.status ?? 200, { 'Content-Type': 'application/json', ...response.headers });
        res.end(response.body ?? '');
    }
}
//# sourceMappingURL=webhook-receiver.js.map