const SYNC = 0x53; // 'S'
const SIMPLE_QUERY = 0x51; // 'Q'
/**
 * Serialises many client connections onto PGlite's single session, keeping every protocol
 * exchange whole. pglite-socket's own queue interleaves clients message by message outside
 * transactions, so two concurrent parameterised queries (Parse/Bind/Execute/Sync) from different
 * connections overwrite each other's unnamed statement ("portal does not exist"). Here a
 * connection owns the engine from its first message until a Sync or simple Query leaves no
 * transaction open; the others wait their turn in arrival order.
 * Implements the interface PGLiteSocketHandler expects of its `queryQueue`.
 */
export class ProtocolQueue {
    db;
    owner = null;
    waiters = [];
    constructor(db) {
        this.db = db;
    }
    async enqueue(handlerId, message, onData) {
        await this.acquire(handlerId);
        let bytes = 0;
        try {
            await this.db.runExclusive(() => this.db.execProtocolRawStream(message, {
                onRawData: (data) => {
                    bytes += data.length;
                    onData(data);
                },
            }));
        }
        finally {
            const type = message[0];
            const boundary = type === SYNC || type === SIMPLE_QUERY || type === 0; // 0: startup packet
            if (boundary && (this.db.closed || !this.db.isInTransaction()))
                this.release(handlerId);
        }
        return bytes;
    }
    getQueueLength() {
        return this.waiters.length;
    }
    clearQueueForHandler(handlerId) {
        this.waiters = this.waiters.filter((w) => {
            if (w.handlerId !== handlerId)
                return true;
            w.reject(new Error('Handler disconnected'));
            return false;
        });
    }
    /**
     * A connection that goes away mid-transaction must not leave its transaction open.
     * pglite-socket calls this from a socket 'close' handler without catching, so it must never
     * reject: once the engine is closed (shutdown) there is no transaction left to roll back.
     */
    async clearTransactionIfNeeded(handlerId) {
        if (this.owner !== handlerId)
            return;
        try {
            if (!this.db.closed && this.db.isInTransaction())
                await this.db.exec('ROLLBACK');
        }
        catch {
            // The engine closed underneath us; nothing to roll back.
        }
        finally {
            this.release(handlerId);
        }
    }
    acquire(handlerId) {
        if (this.owner === null || this.owner === handlerId) {
            this.owner = handlerId;
            return Promise.resolve();
        }
        return new Promise((resolve, reject) => this.waiters.push({ handlerId, resolve, reject }));
    }
    release(handlerId) {
        if (this.owner !== handlerId)
            return;
        // Hand over to the next waiting connection, and let that connection's other queued messages follow.
        const next = this.waiters.shift();
        this.owner = next ? next.handlerId : null;
        if (!next)
            return;
        next.resolve();
        const sameHandler = this.waiters.filter((w) => w.handlerId === next.handlerId);
        this.waiters = this.waiters.filter((w) => w.handlerId !== next.handlerId);
        for (const w of sameHandler)
            w.resolve();
    }
}
//# sourceMappingURL=embedded-protocol-queue.js.map