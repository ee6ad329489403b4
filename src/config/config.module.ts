import { DynamicModule, Global, Module } from '@nestjs/common';
import { bindAmbientClock, Clock, SystemClock } from '../common/clock.js';
import { AppConfig } from './app-config.js';

/** How this process runs, beyond the environment: set by the entry point (or a test). */
export interface AppOptions {
  /** Time source; default the system clock. Tests pass a clock they drive. */
  clock?: Clock;
  /** Run the outbox worker loop here; default: ROLE is `worker` or `all`. The CLI turns it off. */
  runWorker?: boolean;
  /** Refuse to start when stored values name a key the ring lacks (default on; the `keys:` commands turn it off). */
  checkKeyRing?: boolean;
}

/** The resolved `AppOptions`, injectable. */
export class Runtime {
  constructor(
    readonly runWorker: boolean,
    readonly checkKeyRing = true,
  ) {}
}

/** Makes the boot-time validated `AppConfig`, the `Clock` and the `Runtime` injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, options: AppOptions = {}): DynamicModule {
    const clock = options.clock ?? new SystemClock();
    bindAmbientClock(clock);
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useValue: clock },
        {
          provide: Runtime,
          useValue: new Runtime(options.runWorker ?? config.ROLE !== 'api', options.checkKeyRing ?? true),
        },
      ],
      exports: [AppConfig, Clock, Runtime],
    };
  }
}
