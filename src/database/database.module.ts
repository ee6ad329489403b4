import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source.js';
import { TransactionService } from './transaction.service.js';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string, poolSize: number, acquireTimeoutMs?: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(url, poolSize, acquireTimeoutMs), retryAttempts: 0 })],
      providers: [TransactionService],
      exports: [TransactionService],
    };
  }
}
