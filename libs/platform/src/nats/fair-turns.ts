/**
 * How many of one caller's waiting requests a round may start. One a round made a lone caller's
 * burst (fifty list requests of one app) start one request per turn of the event loop, each
 * reply then leaving in a socket write of its own: the book service spent about half as much
 * CPU again a request, and NATS two thirds more, than with the burst started together
 * (docs/PERFORMANCE.md, "Search and lists"). Sixteen keeps another caller's wait short: behind at most sixteen starts
 * of each caller ahead of it, and behind no more than a caller may run at once (8 by default).
 */
export const STARTS_PER_CALLER_PER_ROUND = 16;

/**
 * Round-robin between callers for the handlers a service has admitted (docs/DECISIONS.md,
 * "Limits"). NATS hands a service every message of a read from its socket at once, in arrival
 * order; started in that order, one caller's burst of searches would run before another
 * caller's single read that arrived a moment later. Here each admitted request waits for its
 * turn: a round starts one request of each waiting caller, in the order the callers first
 * waited, then a second of each, and so on up to `startsPerRound` of each; the next round comes
 * after the event loop has read the socket again, so a new caller's request is started within
 * one round whatever the others have queued.
 *
 * A named caller runs at most `maxRunningPerCaller` handlers at once; its other admitted
 * requests wait here until one of them replies. Requests without a caller (imports, one service
 * asking another) take their turns as one caller, never held back by that bound. The queue is
 * bounded by admission (admission.ts), never by this.
 */
export class FairTurns {
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly running = new Map<string, number>();
  private roundScheduled = false;

  constructor(
    private readonly maxRunningPerCaller = Infinity,
    private readonly startsPerRound = STARTS_PER_CALLER_PER_ROUND,
  ) {}

  /** Resolves when it is this caller's turn to start a handler; `done` must follow once it replied. */
  turn(caller: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(caller);
      if (queue) queue.push(resolve);
      else this.waiting.set(caller, [resolve]);
      this.scheduleRound();
    });
  }

  /** A handler started by `turn(caller)` has replied: the caller's next request may start. */
  done(caller: string): void {
    const n = (this.running.get(caller) ?? 1) - 1;
    if (n > 0) this.running.set(caller, n);
    else this.running.delete(caller);
    if (this.waiting.has(caller)) this.scheduleRound();
  }

  /** Requests admitted and not yet started. */
  get queued(): number {
    let n = 0;
    for (const queue of this.waiting.values()) n += queue.length;
    return n;
  }

  private mayStart(caller: string): boolean {
    return caller === '' || (this.running.get(caller) ?? 0) < this.maxRunningPerCaller;
  }

  private scheduleRound(): void {
    if (this.roundScheduled) return;
    this.roundScheduled = true;
    // setImmediate runs after the poll phase: the messages read in this turn of the loop all
    // queue before the first round starts any of them
    setImmediate(this.round);
  }

  private readonly round = (): void => {
    this.roundScheduled = false;
    for (let pass = 0; pass < this.startsPerRound; pass++) {
      let started = false;
      for (const caller of [...this.waiting.keys()]) {
        if (!this.mayStart(caller)) continue;
        const queue = this.waiting.get(caller)!;
        const start = queue.shift()!;
        if (queue.length === 0) this.waiting.delete(caller);
        this.running.set(caller, (this.running.get(caller) ?? 0) + 1);
        start();
        started = true;
      }
      if (!started) break;
    }
    // a caller at its bound starts again from `done`, not from a round that would find it full
    for (const caller of this.waiting.keys()) {
      if (this.mayStart(caller)) return this.scheduleRound();
    }
  };
}
