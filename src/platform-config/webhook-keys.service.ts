import { Injectable } from '@nestjs/common';
import { createPrivateKey, KeyObject } from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import { later, RealClock } from '../common/clock.js';
import { generateWebhookKeyPair } from '../outbox/signing/grid-signature.js';
import { newWebhookSecret } from '../outbox/signing/standard-webhooks.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import { WebhookSigningKeysEntity } from './platform-config.entity.js';

/** After a rotation the previous secret keeps signing for this long. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** What a delivery is signed with. */
export interface SigningMaterial {
  privateKey: KeyObject;
  /** Current secret first, then the previous one while its overlap lasts. */
  secrets: string[];
}

const CACHE_LIMIT = 10_000;

/**
 * Each platform's ECDSA P-256 key pair (X-Grid-Signature) and Standard Webhooks secret. Private
 * parts are stored sealed (`SecretBox`, src/secrets/); opened values are cached by sealed
 * value, so a rotation is seen at once and nothing stale is ever used.
 */
@Injectable()
export class WebhookKeysService {
  private readonly decrypted = new Map<string, string>();
  private readonly privateKeys = new Map<string, KeyObject>();

  constructor(
    private readonly box: SecretBox,
    private readonly clock: RealClock,
    sealed: SealedColumns,
  ) {
    for (const column of ['private_key_enc', 'secret_enc', 'previous_secret_enc']) {
      sealed.register({
        name: `webhook_signing_keys.${column}`,
        table: 'webhook_signing_keys',
        keys: ['platform_id'],
        value: column,
        assign: (param) => `${column} = ${param}`,
      });
    }
  }

  /** Generates the platform's keys (in its creation transaction); a no-op when it has them. */
  async create(m: EntityManager, platformId: string): Promise<void> {
    const { publicKeyPem, privateKeyPem } = generateWebhookKeyPair();
    const now = this.clock.now();
    await m
      .createQueryBuilder()
      .insert()
      .into(WebhookSigningKeysEntity)
      .values({
        platformId,
        publicKey: publicKeyPem,
        privateKeyEnc: this.box.seal(privateKeyPem),
        secretEnc: this.box.seal(newWebhookSecret()),
        previousSecretEnc: null,
        previousSecretExpiresAt: null,
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .execute();
  }

  /** The platform's keys, created on first use for platforms that predate them. */
  async load(m: EntityManager, platformId: string, lock = false): Promise<WebhookSigningKeysEntity> {
    return (await this.loadMany(m, [platformId], lock)).get(platformId)!;
  }

  async loadMany(
    m: EntityManager,
    platformIds: string[],
    lock = false,
  ): Promise<Map<string, WebhookSigningKeysEntity>> {
    const find = () =>
      m.find(WebhookSigningKeysEntity, {
        where: { platformId: In(platformIds) },
        ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      });
    let rows = await find();
    if (rows.length < platformIds.length) {
      const have = new Set(rows.map((r) => r.platformId));
      for (const id of platformIds) if (!have.has(id)) await this.create(m, id);
      rows = await find();
    }
    return new Map(rows.map((r) => [r.platformId, r]));
  }

  /** A new current secret; the old one keeps signing for 24 hours (a second rotation drops it sooner). */
  async rotateSecret(m: EntityManager, platformId: string): Promise<WebhookSigningKeysEntity> {
    const row = await this.load(m, platformId, true);
    const now = this.clock.now();
    row.previousSecretEnc = row.secretEnc;
    row.previousSecretExpiresAt = later(now, SECRET_ROTATION_OVERLAP_MS);
    row.secretEnc = this.box.seal(newWebhookSecret());
    row.updatedAt = now;
    await m.save(WebhookSigningKeysEntity, row);
    return row;
  }

  /** The current `whsec_` secret (shown to MANAGE tokens). */
  currentSecret(row: Pick<WebhookSigningKeysEntity, 'secretEnc'>): string {
    return this.decrypt(row.secretEnc);
  }

  signingMaterial(
    row: Pick<
      WebhookSigningKeysEntity,
      'privateKeyEnc' | 'secretEnc' | 'previousSecretEnc' | 'previousSecretExpiresAt'
    >,
  ): SigningMaterial {
    const secrets = [this.decrypt(row.secretEnc)];
    if (row.previousSecretEnc && row.previousSecretExpiresAt && row.previousSecretExpiresAt > this.clock.now()) {
      secrets.push(this.decrypt(row.previousSecretEnc));
    }
    return { privateKey: this.privateKey(row.privateKeyEnc), secrets };
  }

  private privateKey(ciphertext: string): KeyObject {
    let key = this.privateKeys.get(ciphertext);
    if (!key) {
      key = createPrivateKey(this.box.open(ciphertext));
      remember(this.privateKeys, ciphertext, key);
    }
    return key;
  }

  private decrypt(ciphertext: string): string {
    let plain = this.decrypted.get(ciphertext);
    if (plain === undefined) {
      plain = this.box.open(ciphertext);
      remember(this.decrypted, ciphertext, plain);
    }
    return plain;
  }
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}
