import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { BeneficialOwnersController } from './beneficial-owners.controller.js';
import { BeneficialOwnersService } from './beneficial-owners.service.js';

/** /beneficial-owners: the owners, directors and officers of BUSINESS customers. */
@Module({
  imports: [CustomersModule, SecretsModule],
  controllers: [BeneficialOwnersController],
  providers: [BeneficialOwnersService],
  exports: [BeneficialOwnersService],
})
export class BeneficialOwnersModule {}
