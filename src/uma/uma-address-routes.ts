import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomersService } from '../customers/customers.service.js';
import { addRoute, routesOf, umaAddressKey } from '../database/routing-keys.js';

/** Anything that runs a statement (an EntityManager, the TransactionService). */
interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

/**
 * Inbound UMA requests name a receiver address before any platform is known. Every customer's
 * address is routed (`routing_keys`, kind `uma_address`, case-insensitive), written in the
 * transaction that creates the customer or changes its address; the receiver's lookup then runs
 * pinned on each platform the address routes to (one, unless several platforms gave it to a
 * customer: the oldest customer wins, as before). A route left by a deleted customer or a changed
 * address leads to a pinned lookup that finds nothing on that platform.
 */
@Injectable()
export class UmaAddressRoutes implements OnModuleInit {
  constructor(private readonly customers: CustomersService) {}

  onModuleInit(): void {
    const route = async (m: Queryable, customer: { platformId: string; umaAddress: string }) => {
      await addRoute(m, 'uma_address', umaAddressKey(customer.umaAddress), customer.platformId);
    };
    this.customers.onCustomerCreated(route);
    this.customers.onCustomerUpdated(route);
  }

  /**
   * The first row (by `created_at`, then `id`) the pinned `lookup` finds on the platforms `address`
   * routes to; undefined when none has it.
   */
  static async oldest<T extends { created_at: Date; id: string }>(
    q: Queryable,
    address: string,
    lookup: (platformId: string) => Promise<T[]>,
  ): Promise<T | undefined> {
    let best: T | undefined;
    for (const platformId of await routesOf(q, 'uma_address', umaAddressKey(address))) {
      const [row] = await lookup(platformId);
      if (!row) continue;
      const t = row.created_at.getTime();
      const b = best?.created_at.getTime();
      if (best === undefined || t < b! || (t === b && row.id < best.id)) best = row;
    }
    return best;
  }
}
