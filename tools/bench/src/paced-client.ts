import { ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { paced, PacedResult } from './paced';

/** One open-loop round, as data: it crosses to the client process. */
export interface PacedRound {
  url: string;
  rate: number;
  seconds: number;
  headers: Record<string, string>;
  /** An answer counts when it has this status and its body contains this text. */
  expect: { status: number; bodyIncludes: string };
}

type Reply = { result: PacedResult } | { error: string };

/**
 * The open-loop client in a process of its own, kept for every round so its JIT stays warm.
 * In the benchmark's process its garbage collector also walked the catalogue ids and results
 * held there: pauses of 7–14 ms that stopped it reading answers (seen as 15–20 ms gaps in its
 * 1 ms timer, at the very moments the latency spikes came), charged to the server under test.
 */
export class PacedClient {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<PacedClient> {
    const child = fork(__filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await once(child, 'spawn');
    return new PacedClient(child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(round: PacedRound): Promise<PacedResult> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: Reply) => {
        this.child.off('exit', onExit);
        if ('error' in reply) reject(new Error(reply.error));
        else resolve(reply.result);
      };
      const onExit = (code: number | null) => {
        this.child.off('message', onMessage);
        reject(new Error(`the open-loop client exited (${String(code)}) during a round`));
      };
      this.child.once('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send(round);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.disconnect();
    await exited;
  }
}

/** The client side: runs each round it is sent and answers with its result. */
function serveRounds(): void {
  process.on('message', (round: PacedRound) => {
    const needle = Buffer.from(round.expect.bodyIncludes);
    paced(round.url, round.rate, round.seconds, round.headers, (status, body) => status === round.expect.status && body.includes(needle)).then(
      (result) => process.send?.({ result } satisfies Reply),
      (err: unknown) => process.send?.({ error: (err as Error).message } satisfies Reply),
    );
  });
}

if (require.main === module && process.argv.includes('--serve')) serveRounds();
