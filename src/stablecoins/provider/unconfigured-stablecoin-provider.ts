import { Injectable } from '@nestjs/common';
import { portNotConfigured } from '../../common/requires-port.js';
import { StablecoinProvider, type ProviderOperationPlan, type ProviderToken } from './stablecoin-provider.js';

/**
 * The provider when none is configured (`STABLECOIN_PROVIDER=none`, docs/production.md): the routes
 * that need one answer 503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `STABLECOIN_PROVIDER`) before anything is written
 * (`@RequiresPort`); a call that still reaches it gets the same answer, and the worker advances
 * nothing (operations made under an earlier configuration wait for a provider).
 */
@Injectable()
export class UnconfiguredStablecoinProvider extends StablecoinProvider {
  private fail(): never {
    throw portNotConfigured('STABLECOIN_PROVIDER');
  }
  verifyCredentials(): { providerAccountId: string } {
    return this.fail();
  }
  token(): ProviderToken {
    return this.fail();
  }
  linkExternalAccount(): { providerAddressId: string } {
    return this.fail();
  }
  requireInternalBalance(): void {
    this.fail();
  }
  createOperation(): ProviderOperationPlan {
    return this.fail();
  }
  fundsCanArrive(): boolean {
    return false;
  }
  nextStep(): null {
    return null;
  }
}
