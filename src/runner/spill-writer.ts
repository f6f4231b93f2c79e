// Spill writing for the output pipeline: text is encoded straight into reused 256 KiB buffers,
// each written in the background (a few in flight) while the next block is worked on. The first
// failure is reported once and later text is dropped. Used by output-pipeline.ts and the bench.
import type { ByteString } from "./byte-text.ts";
import type { SpillFile } from "./spill.ts";

const BATCH_BYTES = 256 * 1024;
const MAX_WRITES_IN_FLIGHT = 4;

export class SpillWriter {
  private batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  /** Batch buffers whose write has finished, ready for reuse. */
  private readonly free: Buffer[] = [];
  private inFlight: Promise<void>[] = [];
  private failed = false;

  constructor(
    readonly file: SpillFile,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues text; waits only when too many writes are in flight. */
  async append(text: ByteString): Promise<void> {
    if (this.failed) return;
    if (text.length > BATCH_BYTES - this.used) await this.flushBatch();
    if (text.length >= BATCH_BYTES) {
      await this.write(Buffer.from(text, "latin1"));
      return;
    }
    this.used += this.batch.write(text, this.used, "latin1");
  }

  /** Writes what is batched and waits for every write. */
  async finish(): Promise<void> {
    await this.flushBatch();
    await Promise.all(this.inFlight);
    this.inFlight = [];
  }

  private async flushBatch(): Promise<void> {
    if (this.used === 0) return;
    const batch = this.batch;
    const full = batch.subarray(0, this.used);
    this.batch = this.free.pop() ?? Buffer.allocUnsafe(BATCH_BYTES);
    this.used = 0;
    await this.write(full, () => this.free.push(batch));
  }

  private async write(bytes: Buffer, release?: () => void): Promise<void> {
    if (this.failed) return;
    const done = this.file.write(bytes).then(release, (error: unknown) => {
      if (this.failed) return;
      this.failed = true;
      this.onError(error);
    });
    this.inFlight.push(done);
    if (this.inFlight.length > MAX_WRITES_IN_FLIGHT) await this.inFlight.shift();
  }
}
