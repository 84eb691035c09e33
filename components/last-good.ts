import { useState } from "react";

/**
 * The last value that was `current`: what stays on screen while a newer one loads, and after the
 * newer one failed (the page then says that what it shows is the last good result).
 */
export function useLastGood<T>(value: T | undefined, current: boolean): T | undefined {
  const [last, setLast] = useState(value);
  if (current && value !== undefined && value !== last) setLast(value);
  return current && value !== undefined ? value : last;
}
