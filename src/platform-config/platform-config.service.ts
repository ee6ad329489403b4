import { Injectable } from '@nestjs/common';
import { Clock, type RealTime } from '../common/clock.js';
import { EntityManager } from 'typeorm';
import { formatId, newUuid } from '../common/ids.js';
import { mergePatch } from '../common/objects.js';
import { AppConfig } from '../config/app-config.js';
import { lockOption, type RowLock } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { EXTRA_WEBHOOK_TYPE_CHOICES, isReferenceWebhookType } from '../outbox/webhook-types.js';
import { WebhookKeysService, type SigningMaterial } from './webhook-keys.service.js';
import type { PlatformConfig, PlatformConfigUpdateRequest } from './platform-config.dto.js';
import { DEFAULT_SUPPORTED_CURRENCIES, PlatformConfigEntity } from './platform-config.entity.js';
import type { EmbeddedWalletConfig, FeeConfig } from './platform-config.entity.js';
import { DEFAULT_CARD_CONFIGS, DEFAULT_CARD_PROGRAM, type CardConfigs, type CardProgram } from './card-program.js';
import { noteAuditResource } from '../audit/audit-trail.js';

/** The platform's webhook verification material as GET /config shows it. */
interface WebhookCredentialsView {
  /** ECDSA P-256 public key (SPKI PEM) that verifies `X-Grid-Signature`. */
  publicKey: string;
  /** The Standard Webhooks `whsec_` secret: only for MANAGE tokens. */
  secret?: string;
}

/** Where and how a platform's webhooks go (read by the outbox worker). */
export interface WebhookTarget {
  endpoint: string | null;
  signing: SigningMaterial;
}

interface TargetRow {
  platform_id: string;
  webhook_endpoint: string | null;
  private_key_enc: string | null;
  secret_enc: string | null;
  previous_secret_enc: string | null;
  previous_secret_expires_at: RealTime | null;
}

/**
 * Called inside the transaction that creates a platform's configuration or writes its
 * `supportedCurrencies`, with the resulting currency codes. A listener that throws rolls the
 * whole change back. (Internal accounts use it to open the accounts of a newly supported currency.)
 */
export type SupportedCurrenciesListener = (
  m: EntityManager,
  platformId: string,
  currencyCodes: string[],
) => Promise<void>;

/**
 * Called inside the transaction of a PATCH /config that sets `embeddedWalletConfig` on a platform
 * that had none (the embedded-wallets area provisions the existing customers' wallets).
 */
export type EmbeddedWalletsEnabledListener = (m: EntityManager, platformId: string) => Promise<void>;

/**
 * A scalar subquery giving the platform's `counterparty_requirements` flag (NULL when it has no
 * configuration), for a statement that checks it inline (`platformIdParam` e.g. `'$2::uuid'`).
 */
export function counterpartyRequirementsSql(platformIdParam: string): string {
  return `(SELECT counterparty_requirements FROM platform_configs WHERE platform_id = ${platformIdParam})`;
}

/** GET /config in one fixed statement: the configuration and the webhook verification material. */
const GET_CONFIG_SQL = `
  SELECT c.platform_id, c.id, c.uma_domain, c.proxy_uma_subdomain, c.webhook_endpoint, c.supported_currencies,
    c.fee_configs, c.card_configs, c.card_program, c.counterparty_requirements, c.is_regulated_financial_institution,
    c.embedded_wallet_config, c.extra_webhook_types, c.created_at, c.updated_at, k.public_key, k.secret_enc
  FROM platform_configs c LEFT JOIN webhook_signing_keys k ON k.platform_id = c.platform_id
  WHERE c.platform_id = $1`;

interface ConfigRow {
  platform_id: string;
  id: string;
  uma_domain: string | null;
  proxy_uma_subdomain: string | null;
  webhook_endpoint: string | null;
  supported_currencies: PlatformConfigEntity['supportedCurrencies'];
  fee_configs: FeeConfig[];
  card_configs: PlatformConfigEntity['cardConfigs'];
  card_program: PlatformConfigEntity['cardProgram'];
  counterparty_requirements: boolean;
  is_regulated_financial_institution: boolean;
  embedded_wallet_config: PlatformConfigEntity['embeddedWalletConfig'];
  extra_webhook_types: string[];
  created_at: Date;
  updated_at: Date;
  public_key: string | null;
  secret_enc: string | null;
}

/**
 * PATCH /config's `feeConfigs`: upserted by (feeType, sourceCurrency); one whose fixed and variable
 * fees are both zero is removed (the reference's "deactivates"). Kept in a stable order.
 */
export function mergeFeeConfigs(current: FeeConfig[], patch: FeeConfig[]): FeeConfig[] {
  const byKey = new Map((current ?? []).map((f) => [`${f.feeType}/${f.sourceCurrency}`, f]));
  for (const f of patch) {
    const key = `${f.feeType}/${f.sourceCurrency}`;
    if (f.variableFeeBps === 0 && f.fixedFee.amount === 0) byKey.delete(key);
    else
      byKey.set(key, {
        feeType: f.feeType,
        sourceCurrency: f.sourceCurrency,
        variableFeeBps: f.variableFeeBps,
        fixedFee: { amount: f.fixedFee.amount, currency: f.fixedFee.currency },
      });
  }
  return [...byKey.values()].sort((a, b) =>
    `${a.feeType}/${a.sourceCurrency}`.localeCompare(`${b.feeType}/${b.sourceCurrency}`),
  );
}

/** The platform's fee for a transaction of this kind sent in `currency` (none: zero). */
export function platformFeeFor(
  feeConfigs: FeeConfig[] | undefined,
  feeType: FeeConfig['feeType'],
  currency: string,
): { fixed: number; variableRate: number } {
  const fee = (feeConfigs ?? []).find((f) => f.feeType === feeType && f.sourceCurrency === currency);
  return fee
    ? { fixed: fee.fixedFee.amount, variableRate: fee.variableFeeBps / 10_000 }
    : { fixed: 0, variableRate: 0 };
}

/** A stored program with the members added since it was written (e.g. `sandboxProvisioning`) at their defaults. */
function withProgramDefaults(program: CardProgram): CardProgram {
  return {
    ...DEFAULT_CARD_PROGRAM,
    ...program,
    cardCapabilities: { ...DEFAULT_CARD_PROGRAM.cardCapabilities, ...program.cardCapabilities },
  };
}

/** What the cards area reads of the platform's settings: the card program and the platform-wide card caps. */
export interface CardSettings {
  cardProgram: CardProgram;
  cardConfigs: CardConfigs;
}

/**
 * A scalar subquery of the platform's stored card settings as one jsonb object (`card_program`,
 * `card_configs`), for a caller's own statement (`platform`: the platform id's placeholder); give
 * its value to `cardSettingsOf`.
 */
export function cardSettingsSql(platform: string): string {
  return `SELECT jsonb_build_object('card_program', card_program, 'card_configs', card_configs)
            FROM platform_configs WHERE platform_id = ${platform}`;
}

/** The settings from the stored `card_program` and `card_configs` (read by a caller's own statement). */
export function cardSettingsOf(program: CardProgram, configs: CardConfigs): CardSettings {
  return { cardProgram: withProgramDefaults(program), cardConfigs: { ...DEFAULT_CARD_CONFIGS, ...configs } };
}

export function renderConfig(
  row: PlatformConfigEntity,
  webhook: WebhookCredentialsView,
  /** The deployment's PROVIDER_REQUIRED_CUSTOMER_FIELDS: shown on each currency it names. */
  providerRequired: ReadonlyMap<string, readonly string[]> = new Map(),
): PlatformConfig {
  const view: PlatformConfig = {
    id: formatId('PlatformConfig', row.id),
    webhookPublicKey: webhook.publicKey,
    supportedCurrencies: row.supportedCurrencies.map((c) => {
      const required = providerRequired.get(c.currencyCode);
      return required?.length ? { ...c, providerRequiredCustomerFields: [...required] } : c;
    }),
    isRegulatedFinancialInstitution: row.isRegulatedFinancialInstitution,
    feeConfigs: row.feeConfigs ?? [],
    cardConfigs: { ...DEFAULT_CARD_CONFIGS, ...row.cardConfigs },
    cardProgram: withProgramDefaults(row.cardProgram),
    counterpartyRequirements: row.counterpartyRequirements,
    extraWebhookTypes: [...(row.extraWebhookTypes ?? [])],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (row.umaDomain !== null) view.umaDomain = row.umaDomain;
  if (row.proxyUmaSubdomain !== null) view.proxyUmaSubdomain = row.proxyUmaSubdomain;
  if (row.webhookEndpoint !== null) view.webhookEndpoint = row.webhookEndpoint;
  if (webhook.secret !== undefined) view.webhookSecret = webhook.secret;
  if (row.embeddedWalletConfig) view.embeddedWalletConfig = row.embeddedWalletConfig;
  return view;
}

@Injectable()
export class PlatformConfigService {
  constructor(
    private readonly tx: TransactionService,
    private readonly appConfig: AppConfig,
    private readonly outbox: OutboxService,
    private readonly webhookKeys: WebhookKeysService,
    private readonly clock: Clock,
  ) {}

  private readonly currencyListeners: SupportedCurrenciesListener[] = [];
  private readonly walletListeners: EmbeddedWalletsEnabledListener[] = [];

  /** Registers a listener for a platform turning embedded wallets on (see `EmbeddedWalletsEnabledListener`). */
  onEmbeddedWalletsEnabled(listener: EmbeddedWalletsEnabledListener): void {
    this.walletListeners.push(listener);
  }

  /** The platform's EmbeddedWalletConfig (null: embedded wallets are off), read in `m`. */
  async embeddedWalletConfig(m: EntityManager, platformId: string): Promise<EmbeddedWalletConfig | null> {
    const [row] = await m.query<Array<{ config: EmbeddedWalletConfig | null }>>(
      `SELECT embedded_wallet_config AS config FROM platform_configs WHERE platform_id = $1`,
      [platformId],
    );
    return row?.config ?? null;
  }

  /** Registers a listener (typically from a dependent module's `onModuleInit`). */
  onSupportedCurrencies(listener: SupportedCurrenciesListener): void {
    this.currencyListeners.push(listener);
  }

  private async supportedCurrenciesSet(m: EntityManager, platformId: string, codes: string[]): Promise<void> {
    for (const listener of this.currencyListeners) await listener(m, platformId, codes);
  }

  /** Called when a platform is created, in its transaction: defaults and webhook signing keys. */
  async createDefaults(m: EntityManager, platformId: string): Promise<void> {
    await this.webhookKeys.create(m, platformId);
    const now = this.clock.now();
    await m.insert(PlatformConfigEntity, {
      platformId,
      id: newUuid(),
      umaDomain: null,
      proxyUmaSubdomain: null,
      webhookEndpoint: null,
      supportedCurrencies: DEFAULT_SUPPORTED_CURRENCIES,
      feeConfigs: [],
      cardConfigs: DEFAULT_CARD_CONFIGS,
      cardProgram: DEFAULT_CARD_PROGRAM,
      counterpartyRequirements: false,
      isRegulatedFinancialInstitution: false,
      embeddedWalletConfig: null,
      extraWebhookTypes: [],
      createdAt: now,
      updatedAt: now,
    });
    await this.supportedCurrenciesSet(
      m,
      platformId,
      DEFAULT_SUPPORTED_CURRENCIES.map((c) => c.currencyCode),
    );
  }

  /**
   * The platform's configuration row; `lock` takes it FOR SHARE (writers of rows that depend on
   * the settings, e.g. a customer creation against `supportedCurrencies`) or FOR UPDATE (PATCH).
   */
  async load(m: EntityManager, platformId: string, lock?: RowLock): Promise<PlatformConfigEntity> {
    const row = await m.findOne(PlatformConfigEntity, { where: { platformId }, ...lockOption(lock) });
    if (!row) throw new Error(`platform ${platformId} has no configuration row`);
    return row;
  }

  /**
   * The card program and card caps, in one statement; `lock: 'share'` holds them (FOR SHARE) until
   * the caller's transaction ends, so a concurrent PATCH /config waits for it.
   */
  async cardSettings(m: EntityManager, platformId: string, lock?: 'share'): Promise<CardSettings> {
    const [row] = await m.query<Array<{ card_program: CardProgram; card_configs: CardConfigs }>>(
      `SELECT card_program, card_configs FROM platform_configs WHERE platform_id = $1${lock ? ' FOR SHARE' : ''}`,
      [platformId],
    );
    if (!row) throw new Error(`platform ${platformId} has no configuration row`);
    return cardSettingsOf(row.card_program, row.card_configs);
  }

  /** The counterparty-requirements flag alone. */
  async counterpartyRequirements(m: EntityManager, platformId: string): Promise<boolean> {
    const [row] = await m.query<Array<{ required: boolean | null }>>(
      `SELECT ${counterpartyRequirementsSql('$1::uuid')} AS required`,
      [platformId],
    );
    return row?.required === true;
  }

  /**
   * `includeSecret`: the caller holds MANAGE and may see the Standard Webhooks secret. One
   * statement (no transaction); a platform that predates its signing keys takes the slow path,
   * which creates them.
   */
  async get(platformId: string, includeSecret: boolean): Promise<PlatformConfig> {
    const [row] = await this.tx.query<ConfigRow[]>(GET_CONFIG_SQL, [platformId]);
    if (!row || row.public_key === null || row.secret_enc === null) {
      return this.tx.run(async (m) => this.render(m, await this.load(m, platformId), includeSecret));
    }
    const config = Object.assign(new PlatformConfigEntity(), {
      platformId: row.platform_id,
      id: row.id,
      umaDomain: row.uma_domain,
      proxyUmaSubdomain: row.proxy_uma_subdomain,
      webhookEndpoint: row.webhook_endpoint,
      supportedCurrencies: row.supported_currencies,
      feeConfigs: row.fee_configs,
      cardConfigs: row.card_configs,
      cardProgram: row.card_program,
      counterpartyRequirements: row.counterparty_requirements,
      isRegulatedFinancialInstitution: row.is_regulated_financial_institution,
      embeddedWalletConfig: row.embedded_wallet_config,
      extraWebhookTypes: row.extra_webhook_types,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
    return renderConfig(
      config,
      {
        publicKey: row.public_key,
        ...(includeSecret ? { secret: this.webhookKeys.currentSecret({ secretEnc: row.secret_enc }) } : {}),
      },
      this.appConfig.providerRequiredCustomerFields,
    );
  }

  /** A new Standard Webhooks secret; the previous one keeps signing every delivery for 24 hours. */
  async rotateWebhookSecret(platformId: string): Promise<PlatformConfig> {
    return this.tx.run(async (m) => {
      await this.webhookKeys.rotateSecret(m, platformId);
      const config = await this.load(m, platformId);
      noteAuditResource(formatId('PlatformConfig', config.id));
      return this.render(m, config, true);
    });
  }

  private async render(m: EntityManager, row: PlatformConfigEntity, includeSecret: boolean): Promise<PlatformConfig> {
    const keys = await this.webhookKeys.load(m, row.platformId);
    return renderConfig(
      row,
      {
        publicKey: keys.publicKey,
        ...(includeSecret ? { secret: this.webhookKeys.currentSecret(keys) } : {}),
      },
      this.appConfig.providerRequiredCustomerFields,
    );
  }

  async supportedCurrencyCodes(m: EntityManager, platformId: string): Promise<string[]> {
    return (await this.load(m, platformId)).supportedCurrencies.map((c) => c.currencyCode);
  }

  /**
   * Endpoint and signing material of each platform, in one statement (the worker calls it once
   * per claimed batch). Platforms that predate their signing keys get them generated here.
   */
  async webhookTargets(m: EntityManager, platformIds: string[]): Promise<Map<string, WebhookTarget>> {
    const targets = new Map<string, WebhookTarget>();
    if (platformIds.length === 0) return targets;
    const rows = await m.query<TargetRow[]>(
      `/* cross-shard: outbox-webhook-targets */
       SELECT p.platform_id, c.webhook_endpoint, k.private_key_enc, k.secret_enc, k.previous_secret_enc,
              k.previous_secret_expires_at
       FROM unnest($1::uuid[]) AS p(platform_id)
       LEFT JOIN platform_configs c ON c.platform_id = p.platform_id
       LEFT JOIN webhook_signing_keys k ON k.platform_id = p.platform_id`,
      [[...new Set(platformIds)]],
    );
    const missing: TargetRow[] = [];
    for (const row of rows) {
      if (row.private_key_enc === null) {
        missing.push(row);
        continue;
      }
      targets.set(row.platform_id, {
        endpoint: row.webhook_endpoint,
        signing: this.webhookKeys.signingMaterial({
          privateKeyEnc: row.private_key_enc,
          secretEnc: row.secret_enc!,
          previousSecretEnc: row.previous_secret_enc,
          previousSecretExpiresAt: row.previous_secret_expires_at,
        }),
      });
    }
    if (missing.length) {
      const keys = await this.webhookKeys.loadMany(
        m,
        missing.map((r) => r.platform_id),
      );
      for (const row of missing)
        targets.set(row.platform_id, {
          endpoint: row.webhook_endpoint,
          signing: this.webhookKeys.signingMaterial(keys.get(row.platform_id)!),
        });
    }
    return targets;
  }

  /** Changing the webhook endpoint queues a TEST webhook to it, in the same transaction. */
  async update(platformId: string, request: PlatformConfigUpdateRequest): Promise<PlatformConfig> {
    const errors = this.check(request);
    if (errors.length) throw invalidInput(errors);
    return this.tx.run(async (m) => {
      const current = await this.load(m, platformId, 'update');
      let endpointChanged = false;
      if (request.umaDomain !== undefined) current.umaDomain = request.umaDomain;
      if (request.webhookEndpoint !== undefined) {
        endpointChanged = request.webhookEndpoint !== null && request.webhookEndpoint !== current.webhookEndpoint;
        current.webhookEndpoint = request.webhookEndpoint;
      }
      if (request.supportedCurrencies !== undefined)
        // providerRequiredCustomerFields is read-only (rendered from the deployment's setting): not stored.
        current.supportedCurrencies = request.supportedCurrencies.map((c) => {
          const stored = { ...c };
          delete stored.providerRequiredCustomerFields;
          return stored;
        });
      if (request.feeConfigs !== undefined)
        current.feeConfigs = mergeFeeConfigs(current.feeConfigs, request.feeConfigs);
      if (request.cardConfigs !== undefined)
        current.cardConfigs = mergePatch(current.cardConfigs, request.cardConfigs, { keepNulls: true });
      if (request.cardProgram !== undefined)
        current.cardProgram = mergePatch(current.cardProgram, request.cardProgram, {
          keepNulls: true,
          nested: ['cardCapabilities'],
        });
      if (request.counterpartyRequirements !== undefined)
        current.counterpartyRequirements = request.counterpartyRequirements;
      const walletsEnabled = request.embeddedWalletConfig !== undefined && current.embeddedWalletConfig === null;
      if (request.embeddedWalletConfig !== undefined)
        current.embeddedWalletConfig = mergePatch(current.embeddedWalletConfig ?? {}, request.embeddedWalletConfig);
      if (request.extraWebhookTypes !== undefined) current.extraWebhookTypes = request.extraWebhookTypes ?? [];
      current.updatedAt = this.clock.now();
      await m.save(PlatformConfigEntity, current);
      noteAuditResource(formatId('PlatformConfig', current.id));
      if (request.supportedCurrencies !== undefined)
        await this.supportedCurrenciesSet(
          m,
          platformId,
          current.supportedCurrencies.map((c) => c.currencyCode),
        );
      if (walletsEnabled) for (const listener of this.walletListeners) await listener(m, platformId);
      if (endpointChanged) {
        await this.outbox.write(m, {
          platformId,
          type: 'TEST',
          aggregateId: formatId('PlatformConfig', current.id),
          data: {},
        });
      }
      return this.render(m, current, true);
    });
  }

  /** Rules the DTO decorators cannot express: URL scheme, unique currencies, min <= max. */
  private check(request: PlatformConfigUpdateRequest): FieldError[] {
    const errors: FieldError[] = [];
    if (typeof request.webhookEndpoint === 'string') {
      const problem = this.webhookUrlProblem(request.webhookEndpoint);
      if (problem) errors.push(fieldError('webhookEndpoint', problem, { format: 'url' }));
    }
    const seen = new Set<string>();
    request.supportedCurrencies?.forEach((c, i) => {
      if (seen.has(c.currencyCode))
        errors.push(fieldError(`supportedCurrencies.${i}.currencyCode`, 'currency listed twice'));
      seen.add(c.currencyCode);
      if (c.minAmount > c.maxAmount)
        errors.push(fieldError(`supportedCurrencies.${i}.minAmount`, 'minAmount must not exceed maxAmount'));
    });
    const wanted = new Set<string>();
    request.extraWebhookTypes?.forEach((type, i) => {
      if (!EXTRA_WEBHOOK_TYPE_CHOICES.includes(type))
        errors.push(
          fieldError(
            `extraWebhookTypes.${i}`,
            isReferenceWebhookType(type)
              ? `${type} is one of the reference's types: it is always delivered`
              : `not one of this service's own webhook types, a resource of them with .* or *`,
            { enum: [...EXTRA_WEBHOOK_TYPE_CHOICES] },
          ),
        );
      else if (wanted.has(type)) errors.push(fieldError(`extraWebhookTypes.${i}`, 'listed twice'));
      wanted.add(type);
    });
    const keys = new Set<string>();
    request.feeConfigs?.forEach((f, i) => {
      const key = `${f.feeType}/${f.sourceCurrency}`;
      if (keys.has(key)) errors.push(fieldError(`feeConfigs.${i}`, 'this feeType and sourceCurrency are listed twice'));
      keys.add(key);
      if (f.fixedFee.currency !== f.sourceCurrency)
        errors.push(
          fieldError(`feeConfigs.${i}.fixedFee.currency`, `must be the sourceCurrency (${f.sourceCurrency})`),
        );
    });
    return errors;
  }

  private webhookUrlProblem(value: string): string | null {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'webhookEndpoint must be an absolute URL';
    }
    if (url.username || url.password) return 'webhookEndpoint must not carry credentials';
    if (url.protocol === 'https:') return null;
    if (url.protocol === 'http:' && this.appConfig.SANDBOX) return null;
    return this.appConfig.SANDBOX
      ? 'webhookEndpoint must be an http or https URL'
      : 'webhookEndpoint must be an https URL';
  }
}
