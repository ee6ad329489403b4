import { DynamicModule, Global, Module } from '@nestjs/common';
import { bindAmbientClock, Clock, PlatformClock, RealClock, SystemClock, TimeSource } from '../common/clock.js';
import { AppConfig } from './app-config.js';

/** How this process runs, beyond the environment: set by the entry point (or a test). */
export interface AppOptions {
  /** Time source; default the system clock. Tests pass a clock they drive. */
  clock?: TimeSource;
  /** Run the outbox worker loop here; default: ROLE is `worker` or `all`. The CLI turns it off. */
  runWorker?: boolean;
  /** Write the audit trail (default true); false only for the bench's comparison run. */
  audit?: boolean;
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

/** Makes the boot-time validated `AppConfig`, the `Clock`, the `RealClock` and the `Runtime` injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, options: AppOptions = {}): DynamicModule {
    const base = options.clock ?? new SystemClock();
    // Business time follows a sandbox platform's test clock (SANDBOX=true only); infrastructure
    // reads `RealClock`, the same source never offset. With SANDBOX=false both are the base clock.
    const clock = config.SANDBOX ? new PlatformClock(base) : base;
    bindAmbientClock(clock);
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useValue: clock },
        { provide: RealClock, useValue: base },
        {
          provide: Runtime,
          useValue: new Runtime(options.runWorker ?? config.ROLE !== 'api', options.checkKeyRing ?? true),
        },
      ],
      exports: [AppConfig, Clock, RealClock, Runtime],
    };
  }
}
