/** An ordered list of interceptors with axios's use/eject API. */
export class InterceptorList<T> {
  private readonly entries = new Map<number, T>();
  private nextId = 0;

  use(entry: T): number {
    const id = this.nextId++;
    this.entries.set(id, entry);
    return id;
  }

  eject(id: number): void {
    this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }

  list(): T[] {
    return [...this.entries.values()];
  }
}
