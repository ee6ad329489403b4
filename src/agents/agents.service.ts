import { Injectable, Optional } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import type { AgentPrincipal } from '../auth/auth.decorators.js';
import { type BusinessTime, Clock, ClockOffsets, enterPlatformClock, later } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { isRecord } from '../common/objects.js';
import { Page, paginate } from '../common/pagination.js';
import { whereTimeRange } from '../common/time-range.js';
import { validateBody } from '../common/validate-body.js';
import { AppConfig } from '../config/app-config.js';
import { CustomersService } from '../customers/customers.service.js';
import { findOwned, type RowLock } from '../database/queries.js';
import { addRoute, routeOf } from '../database/routing-keys.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { canonicalDeviceCode, hashDeviceCode, newAccessToken, newDeviceCode } from './agent-credentials.js';
import { AgentAccessTokenEntity, AgentDeviceCodeEntity, AgentEntity } from './agent.entity.js';
import {
  AgentPolicy,
  AgentPolicyUpdateRequest,
  AgentUsage,
  applyPolicyUpdate,
  currentUsage,
  freshUsage,
  policyAccountReferences,
  policyRuleErrors,
  renderPolicy,
} from './agent-policy.js';
import {
  Agent,
  AgentCreateRequest,
  AgentCreateResponse,
  AgentDeviceCode,
  AgentDeviceCodeRedeemResponse,
  AgentDeviceCodeStatusResponse,
  AgentUpdateRequest,
  ListAgentsQuery,
} from './agent.dto.js';
import { hashSecret } from '../auth/secrets.js';
import { noteAuditActor, noteAuditResource } from '../audit/audit-trail.js';

export const agentNotFound = (agentId: string) =>
  new ApiError('NOT_FOUND', `Agent ${formatId('Agent', agentId)} not found`);

const deviceCodeNotFound = () => new ApiError('NOT_FOUND', 'Device code not found');

/** The stored usage counters of an agent row. */
export function storedUsage(row: AgentEntity): AgentUsage {
  return {
    dailyTransactionCount: row.dailyTransactionCount,
    dailySpend: Number(row.dailySpend),
    monthlySpend: Number(row.monthlySpend),
    dailyResetDate: row.dailyResetDate,
    monthlyResetMonth: row.monthlyResetMonth,
  };
}

/** The reference's Agent; `usage` as of `now` (counters of a past UTC day or month read as reset). */
export function renderAgent(row: AgentEntity, now: Date): Agent {
  return {
    id: formatId('Agent', row.id),
    name: row.name,
    customerId: formatId('Customer', row.customerId),
    isPaused: row.isPaused,
    isConnected: row.isConnected,
    policy: renderPolicy(row.policy),
    usage: currentUsage(storedUsage(row), now),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function renderDeviceCode(code: string, row: AgentDeviceCodeEntity): AgentDeviceCode {
  return {
    code,
    agentId: formatId('Agent', row.agentId),
    expiresAt: row.expiresAt.toISOString(),
    redeemed: row.redeemedAt !== null,
  };
}

/**
 * Agent management (platform side), device codes and the agent's own profile. Every write runs
 * in one transaction holding the agent row FOR UPDATE, so device-code issue, redemption, pause,
 * policy changes and deletion of one agent are serialised (lock order: agent, then its codes and
 * tokens).
 */
@Injectable()
export class AgentsService {
  private readonly deviceCodeTtlMs: number;

  constructor(
    private readonly tx: TransactionService,
    private readonly customers: CustomersService,
    private readonly clock: Clock,
    config: AppConfig,
    /** SANDBOX=true only: the public redemption reads the code's platform's test clock. */
    @Optional() private readonly clockOffsets?: ClockOffsets,
  ) {
    this.deviceCodeTtlMs = config.AGENT_DEVICE_CODE_TTL_SECONDS * 1000;
  }

  /** The platform's live (not deleted) agent, optionally locked; 404 NOT_FOUND otherwise. */
  find(m: EntityManager, platformId: string, agentId: string, lock?: RowLock): Promise<AgentEntity> {
    return findOwned(
      m,
      AgentEntity,
      platformId,
      { id: agentId, deletedAt: IsNull() },
      () => agentNotFound(agentId),
      lock,
    );
  }

  async create(platformId: string, body: unknown): Promise<AgentCreateResponse> {
    const { value, errors } = validateBody(AgentCreateRequest, body);
    const policy = renderPolicy(value.policy);
    if (isRecord(value.policy)) {
      // Rules across members, reported with the others (once per field).
      const reported = new Set(errors.map((e) => e.field));
      errors.push(...policyRuleErrors(policy).filter((e) => !reported.has(e.field)));
    }
    if (errors.length) throw invalidInput(errors);
    const customerId = parseId('Customer', value.customerId)!;

    return this.tx.run(async (m) => {
      // FOR SHARE: a concurrent customer deletion waits for this agent (or this sees it deleted).
      await this.customers.requireActive(m, platformId, customerId);
      await this.checkAccounts(m, platformId, customerId, policy);
      const now = this.clock.now();
      const usage = freshUsage(now);
      const row = m.create(AgentEntity, {
        id: newUuid(),
        platformId,
        customerId,
        name: value.name,
        isPaused: false,
        isConnected: false,
        policy,
        dailyTransactionCount: usage.dailyTransactionCount,
        dailySpend: String(usage.dailySpend),
        monthlySpend: String(usage.monthlySpend),
        dailyResetDate: usage.dailyResetDate,
        monthlyResetMonth: usage.monthlyResetMonth,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await m.insert(AgentEntity, row);
      noteAuditResource(formatId('Agent', row.id));
      const deviceCode = await this.issueDeviceCode(m, row, now);
      return { agent: renderAgent(row, now), deviceCode };
    });
  }

  async list(platformId: string, query: ListAgentsQuery): Promise<Page<Agent>> {
    const qb = this.tx.manager
      .createQueryBuilder(AgentEntity, 'a')
      .where('a.platform_id = :platformId AND a.deleted_at IS NULL', { platformId });
    if (query.customerId !== undefined)
      qb.andWhere('a.customer_id = :customerId', { customerId: parseId('Customer', query.customerId) });
    if (query.isPaused !== undefined) qb.andWhere('a.is_paused = :isPaused', { isPaused: query.isPaused });
    if (query.isConnected !== undefined)
      qb.andWhere('a.is_connected = :isConnected', { isConnected: query.isConnected });
    const now = this.clock.now();
    return paginate(whereTimeRange(qb, 'a', query), query, (row) => renderAgent(row, now));
  }

  async get(platformId: string, agentId: string): Promise<Agent> {
    return renderAgent(await this.find(this.tx.manager, platformId, agentId), this.clock.now());
  }

  /** Name and/or pause; pausing acts on the agent's very next request (its token is read fresh each time). */
  async update(platformId: string, agentId: string, body: unknown): Promise<Agent> {
    const { value, errors } = validateBody(AgentUpdateRequest, body);
    if (!errors.length && value.name === undefined && value.isPaused === undefined)
      errors.push(fieldError('body', 'at least one of name, isPaused is required'));
    if (errors.length) throw invalidInput(errors);
    return this.tx.run(async (m) => {
      const row = await this.find(m, platformId, agentId, 'update');
      const now = this.clock.now();
      if (value.name !== undefined) row.name = value.name;
      if (value.isPaused !== undefined) row.isPaused = value.isPaused;
      row.updatedAt = now;
      await m.update(
        AgentEntity,
        { id: row.id, platformId },
        { name: row.name, isPaused: row.isPaused, updatedAt: now },
      );
      return renderAgent(row, now);
    });
  }

  /** Partial policy update; the merged policy is validated as a whole and applies from the next call. */
  async updatePolicy(platformId: string, agentId: string, body: unknown): Promise<Agent> {
    const { value, errors } = validateBody(AgentPolicyUpdateRequest, body);
    if (!errors.length && isRecord(body) && Object.keys(body).length === 0)
      errors.push(fieldError('body', 'at least one policy member is required'));
    if (errors.length) throw invalidInput(errors);
    return this.tx.run(async (m) => {
      const row = await this.find(m, platformId, agentId, 'update');
      const policy = applyPolicyUpdate(renderPolicy(row.policy), value);
      const ruleErrors = policyRuleErrors(policy, '');
      if (ruleErrors.length) throw invalidInput(ruleErrors);
      await this.checkAccounts(m, platformId, row.customerId, policy, '');
      const now = this.clock.now();
      row.policy = policy;
      row.updatedAt = now;
      await m.update(AgentEntity, { id: row.id, platformId }, { policy, updatedAt: now });
      return renderAgent(row, now);
    });
  }

  /** Soft delete: its tokens are revoked and its codes superseded in the same transaction (401 at once). */
  async remove(platformId: string, agentId: string): Promise<void> {
    await this.tx.run(async (m) => {
      const row = await this.find(m, platformId, agentId, 'update');
      const now = this.clock.now();
      await m.update(AgentEntity, { id: row.id, platformId }, { deletedAt: now, updatedAt: now });
      await m.update(AgentAccessTokenEntity, { agentId: row.id, platformId, revokedAt: IsNull() }, { revokedAt: now });
      await this.supersedeCodes(m, platformId, row.id, now);
    });
  }

  /** A new code; earlier unredeemed codes stop working. 409 CONFLICT while the agent is connected. */
  async regenerateDeviceCode(platformId: string, agentId: string): Promise<AgentDeviceCode> {
    return this.tx.run(async (m) => {
      const row = await this.find(m, platformId, agentId, 'update');
      if (row.isConnected)
        throw new ApiError(
          'CONFLICT',
          `Agent ${formatId('Agent', agentId)} is connected: its device code was redeemed`,
        );
      const now = this.clock.now();
      await this.supersedeCodes(m, platformId, row.id, now);
      return this.issueDeviceCode(m, row, now);
    });
  }

  /** Whether the platform's code was redeemed; unknown codes and other platforms' are 404 NOT_FOUND. */
  async deviceCodeStatus(platformId: string, input: string): Promise<AgentDeviceCodeStatusResponse> {
    const code = canonicalDeviceCode(input);
    if (!code) throw deviceCodeNotFound();
    const row = await this.tx.manager
      .createQueryBuilder(AgentDeviceCodeEntity, 'c')
      .innerJoin(AgentEntity, 'a', 'a.id = c.agent_id AND a.platform_id = c.platform_id AND a.deleted_at IS NULL')
      .where('c.code_hash = :hash AND c.platform_id = :platformId', { hash: hashDeviceCode(code), platformId })
      .getOne();
    if (!row) throw deviceCodeNotFound();
    return { code, redeemed: row.redeemedAt !== null };
  }

  /**
   * Public: the code is the proof. Once: 200 with a new access token (earlier tokens of the agent
   * are revoked: superseded) and `isConnected: true`. Redeemed, superseded or expired codes: 400
   * INVALID_INPUT saying which; unknown codes (or a deleted agent's): 404 NOT_FOUND. The agent row
   * is locked first, so two concurrent redemptions queue and the second finds the code redeemed.
   * The code comes before its platform: `routing_keys` (kind `agent_device_code`) names it, and
   * every statement after is pinned to it; the new token is routed the same way.
   */
  async redeem(input: string): Promise<AgentDeviceCodeRedeemResponse> {
    const code = canonicalDeviceCode(input);
    if (!code) throw deviceCodeNotFound();
    const hash = hashDeviceCode(code);
    return this.tx.run(async (m) => {
      const platformId = await routeOf(m, 'agent_device_code', hash);
      if (platformId === null) throw deviceCodeNotFound();
      const found = await m.findOne(AgentDeviceCodeEntity, { where: { codeHash: hash, platformId } });
      if (!found) throw deviceCodeNotFound();
      const agent = await m.findOne(AgentEntity, {
        where: { id: found.agentId, platformId, deletedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!agent) throw deviceCodeNotFound();
      // A public route: the code's platform is known only now (its test clock, in the sandbox;
      // its audit chain: the agent redeems its own code).
      enterPlatformClock(this.clockOffsets, agent.platformId);
      noteAuditActor({ platformId: agent.platformId, agentId: agent.id });
      noteAuditResource(formatId('Agent', agent.id));
      const row = await m.findOne(AgentDeviceCodeEntity, {
        where: { id: found.id, platformId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row) throw deviceCodeNotFound();
      const now = this.clock.now();
      const refuse = (why: string) => invalidInput([fieldError('code', why)], `Device code ${why}`);
      if (row.redeemedAt !== null) throw refuse('has already been redeemed');
      if (row.supersededAt !== null) throw refuse('was superseded by a newer device code');
      if (row.expiresAt.getTime() <= now.getTime()) throw refuse(`expired at ${row.expiresAt.toISOString()}`);

      await m.update(AgentDeviceCodeEntity, { id: row.id, platformId }, { redeemedAt: now });
      await m.update(
        AgentAccessTokenEntity,
        { agentId: agent.id, platformId, revokedAt: IsNull() },
        { revokedAt: now },
      );
      const accessToken = newAccessToken();
      const tokenHash = hashSecret(accessToken);
      await m.insert(AgentAccessTokenEntity, {
        id: newUuid(),
        platformId,
        agentId: agent.id,
        deviceCodeId: row.id,
        tokenHash,
        createdAt: now,
        revokedAt: null,
      });
      await addRoute(m, 'agent_access_token', tokenHash, platformId);
      await m.update(AgentEntity, { id: agent.id, platformId }, { isConnected: true, updatedAt: now });
      return {
        agentId: formatId('Agent', agent.id),
        agentName: agent.name,
        accessToken,
        policy: renderPolicy(agent.policy),
      };
    });
  }

  /** `GET /agents/me`: the calling agent (its token was checked a moment ago; deleted since: 401). */
  async me(principal: AgentPrincipal): Promise<Agent> {
    const row = await this.tx.manager.findOne(AgentEntity, {
      where: { id: principal.agentId, platformId: principal.platformId, deletedAt: IsNull() },
    });
    if (!row) throw new ApiError('UNAUTHORIZED', 'Invalid agent access token');
    return renderAgent(row, this.clock.now());
  }

  private async issueDeviceCode(m: EntityManager, agent: AgentEntity, now: BusinessTime): Promise<AgentDeviceCode> {
    const expiresAt = later(now, this.deviceCodeTtlMs);
    // A collision with any code ever issued (about 2^40 of them) is retried with a new code: the
    // route (unique per code across platforms, a reference table) is taken first.
    for (;;) {
      const code = newDeviceCode();
      if (!(await addRoute(m, 'agent_device_code', hashDeviceCode(code), agent.platformId))) continue;
      const row = m.create(AgentDeviceCodeEntity, {
        id: newUuid(),
        platformId: agent.platformId,
        agentId: agent.id,
        codeHash: hashDeviceCode(code),
        expiresAt,
        redeemedAt: null,
        supersededAt: null,
        createdAt: now,
      });
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(AgentDeviceCodeEntity)
        .values(row)
        .orIgnore()
        .returning(['id'])
        .execute();
      if ((inserted.raw as unknown[]).length === 1) return renderDeviceCode(code, row);
    }
  }

  private async supersedeCodes(m: EntityManager, platformId: string, agentId: string, now: Date): Promise<void> {
    await m.update(
      AgentDeviceCodeEntity,
      { agentId, platformId, redeemedAt: IsNull(), supersededAt: IsNull() },
      { supersededAt: now },
    );
  }

  /**
   * `accountRestrictions` may name only the customer's own internal accounts: a FieldError for each
   * other id (another customer's or platform's account reads as not the customer's).
   */
  private async checkAccounts(
    m: EntityManager,
    platformId: string,
    customerId: string,
    policy: AgentPolicy,
    path = 'policy',
  ): Promise<void> {
    const refs = policyAccountReferences(policy, path);
    if (!refs.length) return;
    const ids = [...new Set(refs.map((r) => parseId('InternalAccount', r.accountId)!))];
    const owned = await m.query<Array<{ id: string }>>(
      'SELECT id FROM internal_accounts WHERE platform_id = $1 AND customer_id = $2 AND id = ANY($3::uuid[])',
      [platformId, customerId, ids],
    );
    const ownedIds = new Set(owned.map((r) => r.id));
    const errors: FieldError[] = refs
      .filter((r) => !ownedIds.has(parseId('InternalAccount', r.accountId)!))
      .map((r) => fieldError(r.field, `${r.accountId} is not an internal account of the agent's customer`));
    if (errors.length) throw invalidInput(errors);
  }
}
