/**
 * An inverted index held in memory: which ids carry each term. `lookup` answers "the ids that
 * carry every one of these terms" by walking the rarest term's ids, so its cost follows the
 * result, not the catalogue.
 *
 * It backs search on the local engine (FerretDB v1 on SQLite decodes every document of a
 * collection for any filter other than `_id`: 0.3 ms per book), where each service runs as a
 * single instance and its repository sees every write. On MongoDB the services query the
 * multikey `search_terms` index instead.
 */
export class TermIndex {
  private readonly ids = new Map<string, Set<string>>();
  private readonly termsOf = new Map<string, string[]>();

  get size(): number {
    return this.termsOf.size;
  }

  /** Sets the terms of `id`, replacing what it had. */
  put(id: string, terms: Iterable<string>): void {
    const unique = [...new Set(terms)];
    // a record rewritten with the same terms (a book's rating changed, say) changes nothing here
    const previous = this.termsOf.get(id);
    if (previous && previous.length === unique.length && previous.every((term, i) => term === unique[i])) return;
    this.remove(id);
    this.termsOf.set(id, unique);
    for (const term of unique) {
      let set = this.ids.get(term);
      if (!set) this.ids.set(term, (set = new Set()));
      set.add(id);
    }
  }

  remove(id: string): void {
    for (const term of this.termsOf.get(id) ?? []) {
      const set = this.ids.get(term);
      set?.delete(id);
      if (set?.size === 0) this.ids.delete(term);
    }
    this.termsOf.delete(id);
  }

  has(id: string): boolean {
    return this.termsOf.has(id);
  }

  /** The ids that carry every term; every id when `terms` is empty. */
  lookup(terms: string[]): string[] {
    if (terms.length === 0) return [...this.termsOf.keys()];
    const sets = terms.map((t) => this.ids.get(t));
    if (sets.some((s) => s === undefined)) return [];
    const [rarest, ...others] = (sets as Set<string>[]).sort((a, b) => a.size - b.size);
    return [...rarest].filter((id) => others.every((s) => s.has(id)));
  }
}
