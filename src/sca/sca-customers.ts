import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { formatId } from '../common/ids.js';
import { CustomerEntity } from '../customers/customer.entity.js';
import { findOwned } from '../database/queries.js';
import { ApiError } from '../errors/api-error.js';
import { isRecord } from '../common/objects.js';
import { ScaSettings } from './sca-settings.js';

/** The customer's address country (ISO alpha-2), from the stored profile; null when absent. */
export function addressCountry(customer: CustomerEntity): string | null {
  const address = customer.profile?.address;
  return isRecord(address) && typeof address.country === 'string' ? address.country.toUpperCase() : null;
}

/** Who needs SCA: customers whose address country is one of the configured SCA regions. */
@Injectable()
export class ScaCustomers {
  constructor(private readonly settings: ScaSettings) {}

  /** Whether the customer is in an SCA-regulated region. */
  requiresSca(customer: CustomerEntity): boolean {
    const country = addressCountry(customer);
    return country !== null && this.settings.regions.has(country);
  }

  /** A live customer of the platform (404 CUSTOMER_NOT_FOUND otherwise), whatever its region. */
  find(m: EntityManager, platformId: string, customerId: string): Promise<CustomerEntity> {
    return findOwned(
      m,
      CustomerEntity,
      platformId,
      { id: customerId, isDeleted: false },
      () => new ApiError('CUSTOMER_NOT_FOUND', `Customer ${formatId('Customer', customerId)} not found`),
    );
  }

  /** A live customer of the platform in an SCA region: 404 when unknown, 409 CONFLICT when SCA does not apply. */
  async findScaCustomer(m: EntityManager, platformId: string, customerId: string): Promise<CustomerEntity> {
    const customer = await this.find(m, platformId, customerId);
    if (!this.requiresSca(customer))
      throw new ApiError(
        'CONFLICT',
        `SCA is not required for customer ${formatId('Customer', customerId)}: its address country is not an SCA region`,
      );
    return customer;
  }
}
