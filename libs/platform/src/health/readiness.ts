import { Injectable } from '@nestjs/common';

export interface ReadinessCheck {
  name: string;
  /** Resolves true when the dependency answers; must not take longer than a probe's timeout. */
  check(): Promise<boolean>;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'up' | 'down'>;
}

/** One indicator per dependency, so a probe's answer says which dependency is missing. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks: ReadinessCheck[] = [];
  private shuttingDown = false;

  register(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  /** After SIGTERM the process reports not-ready, so load balancers stop sending work. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async report(timeoutMs = 1500): Promise<ReadinessReport> {
    const entries = await Promise.all(
      this.checks.map(async (c) => {
        const up = await Promise.race([
          c.check().catch(() => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref()),
        ]);
        return [c.name, up ? 'up' : 'down'] as const;
      }),
    );
    const checks = Object.fromEntries(entries) as Record<string, 'up' | 'down'>;
    if (this.shuttingDown) checks.shutdown = 'down';
    const ok = Object.values(checks).every((v) => v === 'up');
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}
