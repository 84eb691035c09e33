/**
 * What `make` derives from `key`, made once per frozen key and frozen itself, so every caller
 * shares it. A key that is not frozen may still change, so its value is made afresh every time.
 * The caches of the hot paths rest on this: the app freezes the catalog state it shares between
 * requests (see freezeCatalogState), and what is derived from a frozen object lives as long as it.
 */
export function derivedFromFrozen<K extends object, V extends object>(cache: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  if (!Object.isFrozen(key)) return make(key);
  let value = cache.get(key);
  if (value === undefined) {
    value = Object.freeze(make(key));
    cache.set(key, value);
  }
  return value;
}
