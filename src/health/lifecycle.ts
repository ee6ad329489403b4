import { Injectable } from '@nestjs/common';

/**
 * Where the process is in its life: once `drain()` is called (SIGTERM/SIGINT, see main.ts)
 * readiness answers 503 and every response carries `Connection: close`, so load balancers and
 * keep-alive clients move to other replicas before the listener closes.
 */
@Injectable()
export class Lifecycle {
  private drainingSince = false;

  get draining(): boolean {
    return this.drainingSince;
  }

  drain(): void {
    this.drainingSince = true;
  }
}
