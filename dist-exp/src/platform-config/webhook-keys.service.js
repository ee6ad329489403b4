var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable } from '@nestjs/common';
import { createPrivateKey } from 'node:crypto';
import { In } from 'typeorm';
import { Clock } from '../common/clock.js';
import { decryptSecret, encryptSecret, generateWebhookKeyPair } from '../outbox/signing/grid-signature.js';
import { newWebhookSecret } from '../outbox/signing/standard-webhooks.js';
import { WebhookSigningKeysEntity } from './platform-config.entity.js';
/** Injection token of the 32-byte server key that encrypts signing keys and secrets at rest. */
export const WEBHOOK_KEY = Symbol('WEBHOOK_KEY');
/** After a rotation the previous secret keeps signing for this long. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const CACHE_LIMIT = 10_000;
/**
 * Each platform's ECDSA P-256 key pair (X-Grid-Signature) and Standard Webhooks secret. Private
 * parts are stored encrypted (AES-256-GCM with the server key); decrypted values are cached by
 * ciphertext, so a rotation is seen at once and nothing stale is ever used.
 */
let WebhookKeysService = class WebhookKeysService {
    key;
    clock;
    decrypted = new Map();
    privateKeys = new Map();
    constructor(key, clock) {
        this.key = key;
        this.clock = clock;
    }
    /** Generates the platform's keys (in its creation transaction); a no-op when it has them. */
    async create(m, platformId) {
        const { publicKeyPem, privateKeyPem } = generateWebhookKeyPair();
        const now = this.clock.now();
        await m
            .createQueryBuilder()
            .insert()
            .into(WebhookSigningKeysEntity)
            .values({
            platformId,
            publicKey: publicKeyPem,
            privateKeyEnc: encryptSecret(privateKeyPem, this.key),
            secretEnc: encryptSecret(newWebhookSecret(), this.key),
            previousSecretEnc: null,
            previousSecretExpiresAt: null,
            createdAt: now,
            updatedAt: now,
        })
            .orIgnore()
            .execute();
    }
    /** The platform's keys, created on first use for platforms that predate them. */
    async load(m, platformId, lock = false) {
        return (await this.loadMany(m, [platformId], lock)).get(platformId);
    }
    async loadMany(m, platformIds, lock = false) {
        const find = () => m.find(WebhookSigningKeysEntity, {
            where: { platformId: In(platformIds) },
            ...(lock ? { lock: { mode: 'pessimistic_write' } } : {}),
        });
        let rows = await find();
        if (rows.length < platformIds.length) {
            const have = new Set(rows.map((r) => r.platformId));
            for (const id of platformIds)
                if (!have.has(id))
                    await this.create(m, id);
            rows = await find();
        }
        return new Map(rows.map((r) => [r.platformId, r]));
    }
    /** A new current secret; the old one keeps signing for 24 hours (a second rotation drops it sooner). */
    async rotateSecret(m, platformId) {
        const row = await this.load(m, platformId, true);
        const now = this.clock.now();
        row.previousSecretEnc = row.secretEnc;
        row.previousSecretExpiresAt = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS);
        row.secretEnc = encryptSecret(newWebhookSecret(), this.key);
        row.updatedAt = now;
        await m.save(WebhookSigningKeysEntity, row);
        return row;
    }
    /** The current `whsec_` secret (shown to MANAGE tokens). */
    currentSecret(row) {
        return this.decrypt(row.secretEnc);
    }
    signingMaterial(row) {
        const secrets = [this.decrypt(row.secretEnc)];
        if (row.previousSecretEnc && row.previousSecretExpiresAt && row.previousSecretExpiresAt > this.clock.now()) {
            secrets.push(this.decrypt(row.previousSecretEnc));
        }
        return { privateKey: this.privateKey(row.privateKeyEnc), secrets };
    }
    privateKey(ciphertext) {
        let key = this.privateKeys.get(ciphertext);
        if (!key) {
            key = createPrivateKey(decryptSecret(ciphertext, this.key));
            remember(this.privateKeys, ciphertext, key);
        }
        return key;
    }
    decrypt(ciphertext) {
        let plain = this.decrypted.get(ciphertext);
        if (plain === undefined) {
            plain = decryptSecret(ciphertext, this.key);
            remember(this.decrypted, ciphertext, plain);
        }
        return plain;
    }
};
WebhookKeysService = __decorate([
    Injectable(),
    __param(0, Inject(WEBHOOK_KEY)),
    __metadata("design:paramtypes", [Buffer,
        Clock])
], WebhookKeysService);
export { WebhookKeysService };
function remember(cache, key, value) {
    if (cache.size >= CACHE_LIMIT)
        cache.clear();
    cache.set(key, value);
}
//# sourceMappingURL=webhook-keys.service.js.map