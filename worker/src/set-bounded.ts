/** Sets `key` as `map`'s newest entry and drops the oldest past `capacity`: an isolate's memory that may forget. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > capacity) map.delete(map.keys().next().value!);
}
