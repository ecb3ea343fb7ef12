const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Customer ids are uuids: anything else names no customer (and must not reach a uuid cast). */
export const isCustomerId = (value: string): boolean => UUID.test(value);
