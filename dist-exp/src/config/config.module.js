var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var ConfigModule_1;
import { Global, Module } from '@nestjs/common';
import { bindAmbientClock, Clock, SystemClock } from '../common/clock.js';
import { AppConfig } from './app-config.js';
/** The resolved `AppOptions`, injectable. */
export class Runtime {
    runWorker;
    constructor(runWorker) {
        this.runWorker = runWorker;
    }
}
/** Makes the boot-time validated `AppConfig`, the `Clock` and the `Runtime` injectable everywhere. */
let ConfigModule = ConfigModule_1 = class ConfigModule {
    static forRoot(config, options = {}) {
        const clock = options.clock ?? new SystemClock();
        bindAmbientClock(clock);
        return {
            module: ConfigModule_1,
            providers: [
                { provide: AppConfig, useValue: config },
                { provide: Clock, useValue: clock },
                { provide: Runtime, useValue: new Runtime(options.runWorker ?? config.ROLE !== 'api') },
            ],
            exports: [AppConfig, Clock, Runtime],
        };
    }
};
ConfigModule = ConfigModule_1 = __decorate([
    Global(),
    Module({})
], ConfigModule);
export { ConfigModule };
//# sourceMappingURL=config.module.js.map