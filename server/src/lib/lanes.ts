/**
 * At most `size` pieces of work at once, first come first served: the media job's conversions
 * (ImageWork bounds what they hold, this the CPU they take), a download's copies of originals.
 */
export class Lanes {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((start) => this.waiting.push(start));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
