import { keepPreviousData, type QueryKey, useQuery } from "@tanstack/react-query";
import type { ActionResult } from "@/lib/action-result";
import { UNREACHABLE } from "./api-client";
import { useLastGood } from "./last-good";

/**
 * A server action's data, for a query or a mutation: a refusal becomes an Error with the action's
 * message, and so does a request that failed (a network that failed says so in plain words; a
 * server that failed, what Next says of its answer).
 */
export async function actionData<T>(action: () => Promise<ActionResult<T>>): Promise<T> {
  let result: ActionResult<T>;
  try {
    result = await action();
  } catch (error) {
    throw error instanceof TypeError ? new Error(UNREACHABLE) : error;
  }
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}

/**
 * A read through a server action, cached per key (none: nothing to read). While another key's
 * answer is on its way, or after it failed, the last good answer stays: `shown` is what to show,
 * and `current` says whether it is the answer for this key.
 */
export function useActionQuery<T>(queryKey: QueryKey, action: (() => Promise<ActionResult<T>>) | undefined) {
  const query = useQuery({
    queryKey,
    queryFn: () => actionData(action!),
    enabled: !!action,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const current = !!query.data && !query.isPlaceholderData && !query.error;
  const shown = useLastGood(query.data, current);
  return { query, shown, current };
}
