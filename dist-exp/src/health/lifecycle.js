var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable } from '@nestjs/common';
/**
 * Where the process is in its life: once `drain()` is called (SIGTERM/SIGINT, see main.ts)
 * readiness answers 503 and every response carries `Connection: close`, so load balancers and
 * keep-alive clients move to other replicas before the listener closes.
 */
let Lifecycle = class Lifecycle {
    drainingSince = false;
    get draining() {
        return this.drainingSince;
    }
    drain() {
        this.drainingSince = true;
    }
};
Lifecycle = __decorate([
    Injectable()
], Lifecycle);
export { Lifecycle };
//# sourceMappingURL=lifecycle.js.map