import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { TokensService } from '../auth/tokens.service.js';
import type { ApiToken } from '../auth/token.dto.js';
import { formatId, newUuid } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import { PlatformEntity } from './platform.entity.js';

export interface PlatformView {
  id: string;
  name: string;
  createdAt: string;
}

export interface CreatedPlatform {
  platform: PlatformView;
  token: ApiToken;
}

/** Operator-level: creates tenants (from the CLI, the embedded quick start and test factories). */
@Injectable()
export class PlatformsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly tokens: TokensService,
    private readonly config: PlatformConfigService,
    private readonly clock: Clock,
  ) {}

  async create(name: string): Promise<CreatedPlatform> {
    return this.tx.run(async (m) => {
      const now = this.clock.now();
      const row = m.create(PlatformEntity, { id: newUuid(), name, createdAt: now, updatedAt: now });
      await m.insert(PlatformEntity, row);
      await this.config.createDefaults(m, row.id);
      const token = await this.tokens.create(m, row.id, {
        name: `${name} admin`,
        permissions: ['MANAGE', 'TRANSACT', 'VIEW'],
      });
      return {
        platform: { id: formatId('Platform', row.id), name: row.name, createdAt: now.toISOString() },
        token,
      };
    });
  }

  count(): Promise<number> {
    return this.tx.manager.count(PlatformEntity);
  }
}
