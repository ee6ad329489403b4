var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var IdentifierSeal_1;
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { resolveWebhookKey } from '../config/webhook-key.js';
import { TransactionService } from '../database/transaction.service.js';
import { decryptSecret, encryptSecret } from '../outbox/signing/grid-signature.js';
import { US_TAX_ID_PATTERN } from './customer.dto.js';
/** Rows written before identifiers were sealed hold the number itself (`###-##-####`). */
const LEGACY_PLAINTEXT = `identifier ~ '^[0-9]{3}-[0-9]{2}-[0-9]{4}$'`;
const RESEAL_BATCH = 500;
/**
 * A customer's SSN / ITIN (`identifier`, write-only) at rest: sealed with AES-256-GCM under the
 * key-encryption key (`WEBHOOK_KEY_ENCRYPTION_KEY`, as webhook secrets and idempotent replays),
 * opened only to check rules across fields on an update; never returned. Rows stored in plain
 * text by an earlier version are sealed when the application starts (every replica tries; each
 * row is rewritten only while it still holds the plain number), and read as they are until then.
 */
let IdentifierSeal = IdentifierSeal_1 = class IdentifierSeal {
    tx;
    logger = new Logger(IdentifierSeal_1.name);
    key;
    constructor(config, tx) {
        this.tx = tx;
        this.key = resolveWebhookKey(config);
    }
    seal(identifier) {
        return identifier === null ? null : encryptSecret(identifier, this.key);
    }
    open(stored) {
        if (stored === null)
            return null;
        return US_TAX_ID_PATTERN.test(stored) ? stored : decryptSecret(stored, this.key);
    }
    /** Never stops the start: until a later start seals them, plain rows are read as they are. */
    async onApplicationBootstrap() {
        await this.resealLegacy().catch((err) => this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'identifiers not resealed'));
    }
    async resealLegacy() {
        let sealed = 0;
        for (;;) {
            const rows = await this.tx.manager.query(`SELECT id, identifier FROM customers WHERE ${LEGACY_PLAINTEXT} LIMIT ${RESEAL_BATCH}`);
            for (const row of rows) {
                await this.tx.manager.query('UPDATE customers SET identifier = $2 WHERE id = $1 AND identifier = $3', [
                    row.id,
                    this.seal(row.identifier),
                    row.identifier,
                ]);
            }
            sealed += rows.length;
            if (rows.length < RESEAL_BATCH)
                break;
        }
        if (sealed)
            this.logger.log({ sealed }, 'sealed identifiers stored in plain text by an earlier version');
    }
};
IdentifierSeal = IdentifierSeal_1 = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AppConfig,
        TransactionService])
], IdentifierSeal);
export { IdentifierSeal };
//# sourceMappingURL=identifier-seal.js.map