import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import type { BulkResult } from "@/db/queries/tool-bulk";
import { postJson, queryKeys } from "./api-client";

/** A bulk request as POST …/tools-bulk takes it (the selection already turned into names or filters). */
export type BulkRequest = {
  action: "enable" | "disable" | "tag" | "delete" | "move" | "copy" | "undo";
  names?: string[];
  matching?: Record<string, string>;
  addTags?: string[];
  removeTags?: string[];
  target?: string;
  revision?: number;
};

function postBulk(catalogId: string, request: BulkRequest): Promise<BulkResult> {
  return postJson<BulkResult>(`/api/catalogs/${encodeURIComponent(catalogId)}/tools-bulk`, request);
}

/** What the toast says of a bulk change: its sentence, then what it left alone and why. */
export function bulkToastText(result: BulkResult): string {
  const unchanged = result.unchanged > 0 ? ` · ${result.unchanged.toLocaleString("en")} already so` : "";
  const skipped = result.skipped.length > 0 ? ` · ${result.skipped.length.toLocaleString("en")} kept: ${result.skipped[0].reason}` : "";
  return `${result.message}${unchanged}${skipped}`;
}

/** Words a comma- or space-separated tag field holds. */
export function tagsIn(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/**
 * Sends a bulk change; on success the tables and pages are read again, `onDone` runs (the
 * selection is emptied) and a toast says what happened, with Undo when the change can be taken back.
 */
export function useBulkChange(catalogId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const mutation = useMutation({
    mutationFn: (request: BulkRequest) => postBulk(catalogId, request),
    onError: (error) => toast.error(error.message, { id: "tool-bulk", action: undefined }),
    onSuccess: (result) => {
      onDone();
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
      if (result.target) void queryClient.invalidateQueries({ queryKey: queryKeys.tools(result.target) });
      router.refresh();
      const undo = result.undoable && result.revision !== null ? result.revision : undefined;
      toast.success(bulkToastText(result), {
        id: "tool-bulk",
        // Set even when there is nothing to undo: an update keeps the fields it does not name.
        action: undo !== undefined ? { label: "Undo", onClick: (event) => undoFrom(event, undo) } : undefined,
      });
    },
  });
  /**
   * Sonner dismisses a toast after its action unless told not to; the undo's own toast reuses the
   * id, and a quick answer landed on the toast being removed and vanished with it. So the toast
   * stays and turns into the undo's progress, then its result.
   */
  function undoFrom(event: { preventDefault(): void }, revision: number) {
    event.preventDefault();
    toast.loading("Undoing…", { id: "tool-bulk", action: undefined });
    mutation.mutate({ action: "undo", revision });
  }
  return mutation;
}
