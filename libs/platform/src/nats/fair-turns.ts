/**
 * Round-robin between callers for the handlers a service has admitted (docs/DECISIONS.md,
 * "Limits"). NATS hands a service every message of a read from its socket at once, in arrival
 * order; started in that order, one caller's burst of searches would run before another
 * caller's single read that arrived a moment later. Here each admitted request waits for its
 * turn: every round starts one request per waiting caller, in the order the callers first
 * waited, and the next round comes after the event loop has read the socket again, so a new
 * caller's request is started within one round whatever the others have queued.
 *
 * The queue is bounded by admission (a caller's share, the instance's capacity), never by this.
 */
export class FairTurns {
  private readonly waiting = new Map<string, Array<() => void>>();
  private roundScheduled = false;

  /** Resolves when it is this caller's turn to start a handler. */
  turn(caller: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(caller);
      if (queue) queue.push(resolve);
      else this.waiting.set(caller, [resolve]);
      this.scheduleRound();
    });
  }

  /** Requests admitted and not yet started. */
  get queued(): number {
    let n = 0;
    for (const queue of this.waiting.values()) n += queue.length;
    return n;
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
    for (const caller of [...this.waiting.keys()]) {
      const queue = this.waiting.get(caller)!;
      const start = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(caller);
      start();
    }
    if (this.waiting.size > 0) this.scheduleRound();
  };
}
