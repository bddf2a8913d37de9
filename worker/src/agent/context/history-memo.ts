/** What a memo keys on: a message of the history by id, and its revision (it changes whenever the message is stored again). */
export interface Revision {
  id: string;
  revision: number;
}

/**
 * What was made from each message of a session's history, kept while the message's revision and
 * the `setting` it was made under hold, for the messages the latest view named only: a turn
 * reads, parses and converts just the messages that are new or changed since the one before.
 */
export class HistoryMemo<T> {
  private readonly kept = new Map<string, { revision: number; setting: number; value: T }>();

  get(message: Revision, setting: number): T | undefined {
    const entry = this.kept.get(message.id);
    return entry && entry.revision === message.revision && entry.setting === setting ? entry.value : undefined;
  }

  set(message: Revision, setting: number, value: T): void {
    this.kept.set(message.id, { revision: message.revision, setting, value });
  }

  /** Forgets every message but `messages` (those the view now holds). */
  retain(messages: readonly Revision[]): void {
    const named = new Set(messages.map((m) => m.id));
    for (const id of this.kept.keys()) if (!named.has(id)) this.kept.delete(id);
  }
}
