import { Injectable } from '@nestjs/common';
import { p256 } from '@noble/curves/nist.js';
import { generateP256KeyPair } from '@turnkey/crypto';
import { uint8ArrayFromHexString, uint8ArrayToHexString } from '@turnkey/encoding';
import type { EntityManager } from 'typeorm';
import { noteAuditResource, noteAuditStatus } from '../audit/audit-trail.js';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { conflictFor } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import type { DelegatedKeyCreateRequest } from './delegated-keys.dto.js';
import type { DelegatedKey } from './wallet-money-events.js';
import {
  isRetry,
  WalletSignatures,
  type RetryHeaders,
  type SignedRequestChallenge,
} from './wallet-signatures.service.js';
import { STAMP_SCHEME } from './wallet-stamp.js';
import { WalletsService } from './wallets.service.js';

export type { DelegatedKey };
export type DelegatedKeyStatus = DelegatedKey['status'];

interface KeyRow {
  id: string;
  platform_id: string;
  account_id: string;
  card_id: string;
  nickname: string;
  status: DelegatedKeyStatus;
  public_key: string;
  private_key_enc: string;
  created_at: Date;
  updated_at: Date;
}

/** What a card authorization records of its wallet signature. */
export interface WalletAuthorization {
  delegatedKeyId: string;
  payload: string;
  /** The API-key stamp (base64url JSON of publicKey, scheme, DER signature) over `payload`. */
  stamp: string;
}

const CREATE = 'POST /auth/delegated-keys';
/** The second signed leg's challenge (the policy grant) answers only the same route. */
const ACTIVATE = 'POST /auth/delegated-keys#policy';

const activeExists = () =>
  new ApiError(
    'CONFLICT',
    'An ACTIVE delegated key already exists for this card funding source: revoke it with DELETE /auth/delegated-keys/{id} first',
  );
const CONFLICTS = { wallet_delegated_keys_one_active: activeExists };

export function renderDelegatedKey(row: KeyRow): DelegatedKey {
  return {
    id: formatId('DelegatedKey', row.id),
    cardId: formatId('Card', row.card_id),
    // A card here has one funding source (its internal account): named by the card.
    fundingSourceId: formatId('CardFundingSource', row.card_id),
    accountId: formatId('InternalAccount', row.account_id),
    publicKey: row.public_key,
    nickname: row.nickname,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Delegated keys for a card funded by an embedded wallet (docs/embedded-wallets.md, "Delegated
 * keys for a card"): the reference's three legs (202; the signed retry creates the key PENDING and
 * answers a second 202; the second signed retry activates it: 201), at most one ACTIVE per card
 * funding source, revocation. The key pair is generated here and its private half sealed at rest;
 * it signs the card's authorizations (`signAuthorization`) and is never answered.
 */
@Injectable()
export class DelegatedKeysService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly outbox: OutboxService,
    private readonly wallets: WalletsService,
    private readonly signatures: WalletSignatures,
    sealed: SealedColumns,
  ) {
    sealed.register({
      name: 'wallet_delegated_keys.private_key_enc',
      table: 'wallet_delegated_keys',
      keys: ['platform_id', 'id'],
      value: 'private_key_enc',
      assign: (param) => `private_key_enc = ${param}`,
    });
  }

  create(
    platformId: string,
    request: DelegatedKeyCreateRequest,
    body: unknown,
    headers: RetryHeaders,
  ): Promise<{ status: 202; body: SignedRequestChallenge } | { status: 201; body: DelegatedKey }> {
    return this.tx.run(async (m) => {
      const accountId = await this.wallets.requireWallet(m, platformId, request.internalAccountId);
      const cardId = await this.fundedCard(m, platformId, request.cardId, accountId);
      const target = formatId('Card', cardId);
      const base = { platformId, accountId, target, body };
      if (!isRetry(headers)) {
        await this.refuseActive(m, platformId, cardId, accountId);
        const challenge = await this.signatures.challenge(
          m,
          { ...base, action: CREATE },
          {
            payloadToSign: this.signatures.payload(platformId, 'ACTIVITY_TYPE_CREATE_USERS_V3', {
              cardId: target,
              walletId: formatId('InternalAccount', accountId),
              userName: request.nickname,
            }),
          },
        );
        return { status: 202, body: challenge };
      }
      const leg = await this.legOf(m, platformId, headers);
      if (leg === ACTIVATE) {
        const verified = await this.signatures.consume(m, headers, { ...base, action: ACTIVATE });
        const keyId = String(verified.context.delegatedKeyId);
        // Legs 2 and 3 are signed by one session (the reference: the same session key pair).
        if (verified.sessionId === null || verified.sessionId !== verified.context.sessionId)
          throw new ApiError(
            'WALLET_SIGNATURE_INVALID',
            'The policy grant must be signed by the session that signed the key creation',
          );
        const [row] = await m.query<KeyRow[]>(
          `SELECT * FROM wallet_delegated_keys WHERE id = $1 AND platform_id = $2 FOR UPDATE`,
          [keyId, platformId],
        );
        if (!row || row.status !== 'PENDING')
          throw new ApiError('WALLET_SIGNATURE_INVALID', 'This challenge names no pending delegated key');
        const now = this.clock.now();
        try {
          await m.query(
            `UPDATE wallet_delegated_keys SET status = 'ACTIVE', updated_at = $2 WHERE id = $1 AND platform_id = $3`,
            [row.id, now, platformId],
          );
        } catch (error) {
          throw conflictFor(error, CONFLICTS) ?? error;
        }
        const view = renderDelegatedKey({ ...row, status: 'ACTIVE', updated_at: now });
        await this.event(m, 'DELEGATED_KEY.ACTIVATED', platformId, view);
        noteAuditResource(view.id);
        noteAuditStatus(201);
        return { status: 201, body: view };
      }
      const creator = await this.signatures.consume(m, headers, { ...base, action: CREATE });
      await this.refuseActive(m, platformId, cardId, accountId);
      // The key pair: generated and custodied here; the private half sealed, never answered.
      const pair = generateP256KeyPair();
      const now = this.clock.now();
      const row: KeyRow = {
        id: newUuid(),
        platform_id: platformId,
        account_id: accountId,
        card_id: cardId,
        nickname: request.nickname,
        status: 'PENDING',
        public_key: pair.publicKey,
        private_key_enc: this.box.seal(pair.privateKey),
        created_at: now,
        updated_at: now,
      };
      await m.query(
        `INSERT INTO wallet_delegated_keys (id, platform_id, account_id, card_id, nickname, status, public_key, private_key_enc, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
        [row.id, platformId, accountId, cardId, row.nickname, row.status, row.public_key, row.private_key_enc, now],
      );
      const view = renderDelegatedKey(row);
      await this.event(m, 'DELEGATED_KEY.CREATED', platformId, view);
      noteAuditResource(view.id);
      const challenge = await this.signatures.challenge(
        m,
        { ...base, action: ACTIVATE },
        {
          payloadToSign: this.signatures.payload(platformId, 'ACTIVITY_TYPE_CREATE_POLICIES', {
            delegatedKeyId: view.id,
            publicKey: row.public_key,
            effect: 'EFFECT_ALLOW',
            walletId: formatId('InternalAccount', accountId),
          }),
          context: { delegatedKeyId: row.id, sessionId: creator.sessionId },
        },
      );
      return { status: 202, body: challenge };
    });
  }

  async list(platformId: string, accountId?: string, fundingSourceId?: string): Promise<{ data: DelegatedKey[] }> {
    const errors = [];
    if (accountId === undefined && fundingSourceId === undefined)
      errors.push(fieldError('accountId', 'one of accountId or fundingSourceId is required'));
    const account = accountId !== undefined ? parseId('InternalAccount', accountId) : undefined;
    const card = fundingSourceId !== undefined ? parseId('CardFundingSource', fundingSourceId) : undefined;
    if (account === null) errors.push(fieldError('accountId', 'must be an InternalAccount id'));
    if (card === null) errors.push(fieldError('fundingSourceId', 'must be a CardFundingSource id'));
    if (errors.length) throw invalidInput(errors);
    const rows = await this.tx.manager.query<KeyRow[]>(
      `SELECT * FROM wallet_delegated_keys
        WHERE platform_id = $1 AND ($2::uuid IS NULL OR account_id = $2) AND ($3::uuid IS NULL OR card_id = $3)
        ORDER BY id`,
      [platformId, account ?? null, card ?? null],
    );
    return { data: rows.map(renderDelegatedKey) };
  }

  async get(platformId: string, id: string): Promise<DelegatedKey> {
    return renderDelegatedKey(await this.find(this.tx.manager, platformId, id));
  }

  /** `DELETE /auth/delegated-keys/{id}`: an ACTIVE key revoked (400 otherwise); it never signs again. */
  revoke(platformId: string, id: string): Promise<void> {
    return this.tx.run(async (m) => {
      const row = await this.find(m, platformId, id, true);
      if (row.status !== 'ACTIVE')
        throw new ApiError(
          'INVALID_INPUT',
          `Delegated key ${formatId('DelegatedKey', row.id)} is ${row.status}, not ACTIVE`,
        );
      const now = this.clock.now();
      await m.query(
        `UPDATE wallet_delegated_keys SET status = 'REVOKED', updated_at = $2 WHERE id = $1 AND platform_id = $3`,
        [row.id, now, platformId],
      );
      const view = renderDelegatedKey({ ...row, status: 'REVOKED', updated_at: now });
      await this.event(m, 'DELEGATED_KEY.REVOKED', platformId, view);
      noteAuditResource(view.id);
    });
  }

  /**
   * For the cards area, in an authorization's transaction: the card's ACTIVE delegated key for its
   * wallet funding account signs `payload` (an API-key stamp, verifiable with @turnkey/crypto's
   * `verifyStampSignature`), or null when there is none (the authorization is declined).
   */
  async signAuthorization(
    m: EntityManager,
    platformId: string,
    cardId: string,
    accountId: string,
    payload: string,
  ): Promise<WalletAuthorization | null> {
    const [row] = await m.query<Array<Pick<KeyRow, 'id' | 'public_key' | 'private_key_enc'>>>(
      `SELECT id, public_key, private_key_enc FROM wallet_delegated_keys
        WHERE card_id = $1 AND account_id = $2 AND platform_id = $3 AND status = 'ACTIVE' FOR SHARE`,
      [cardId, accountId, platformId],
    );
    if (!row) return null;
    const signature = p256.sign(
      new TextEncoder().encode(payload),
      uint8ArrayFromHexString(this.box.open(row.private_key_enc)),
      {
        format: 'der',
      },
    );
    const stamp = Buffer.from(
      JSON.stringify({ publicKey: row.public_key, scheme: STAMP_SCHEME, signature: uint8ArrayToHexString(signature) }),
    ).toString('base64url');
    return { delegatedKeyId: formatId('DelegatedKey', row.id), payload, stamp };
  }

  private async find(m: EntityManager, platformId: string, id: string, lock = false): Promise<KeyRow> {
    const uuid = parseId('DelegatedKey', id);
    const [row] =
      uuid === null
        ? []
        : await m.query<KeyRow[]>(
            `SELECT * FROM wallet_delegated_keys WHERE id = $1 AND platform_id = $2${lock ? ' FOR UPDATE' : ''}`,
            [uuid, platformId],
          );
    if (!row) throw new ApiError('NOT_FOUND', `Delegated key ${id} not found`);
    return row;
  }

  /** The card (uuid) of the platform funded by the wallet, or 404. */
  private async fundedCard(m: EntityManager, platformId: string, cardId: string, accountId: string): Promise<string> {
    const uuid = parseId('Card', cardId);
    const [card] =
      uuid === null
        ? []
        : await m.query<Array<{ id: string }>>(
            `SELECT id FROM cards WHERE id = $1 AND platform_id = $2 AND funding_source_id = $3 AND funding_detached_at IS NULL`,
            [uuid, platformId, accountId],
          );
    if (!card) throw new ApiError('NOT_FOUND', `No card ${cardId} funded by this embedded wallet`);
    return card.id;
  }

  private async refuseActive(m: EntityManager, platformId: string, cardId: string, accountId: string): Promise<void> {
    const [active] = await m.query<Array<{ id: string }>>(
      `SELECT id FROM wallet_delegated_keys WHERE card_id = $1 AND account_id = $2 AND platform_id = $3 AND status = 'ACTIVE'`,
      [cardId, accountId, platformId],
    );
    if (active) throw activeExists();
  }

  /** Which signed leg a retry answers (its challenge's route), read before it is consumed. */
  private async legOf(m: EntityManager, platformId: string, headers: RetryHeaders): Promise<string> {
    const uuid = headers.requestId !== undefined ? parseId('Request', headers.requestId) : null;
    if (uuid === null) return CREATE; // consume answers the 401
    const [row] = await m.query<Array<{ action: string }>>(
      `SELECT action FROM wallet_signed_requests WHERE id = $1 AND platform_id = $2`,
      [uuid, platformId],
    );
    return row?.action === ACTIVATE ? ACTIVATE : CREATE;
  }

  /** The key's event: its data is the key as `GET /auth/delegated-keys/{id}` renders it (`renderDelegatedKey`). */
  private async event(
    m: EntityManager,
    type: 'DELEGATED_KEY.CREATED' | 'DELEGATED_KEY.ACTIVATED' | 'DELEGATED_KEY.REVOKED',
    platformId: string,
    view: DelegatedKey,
  ): Promise<void> {
    await this.outbox.write(m, { platformId, type, aggregateId: view.accountId, data: { ...view } });
  }
}
