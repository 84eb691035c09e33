"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { reviewDefinitionAction } from "@/app/catalogs/[catalog]/tools/actions";
import { type DefinitionReview, queryKeys } from "./api-client";

/**
 * An editor's approval or rejection of a held-back tool's definition (the digest they saw is sent,
 * so nothing unseen is approved); afterwards the tools, the tool and its history are read again.
 */
export function useDefinitionVerdict(catalogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ review, decision }: { review: DefinitionReview; decision: "approve" | "reject" }) => {
      const result = await reviewDefinitionAction(catalogId, { tool: review.name, decision, digest: review.digest });
      if (!result.ok) throw new Error(result.error.message);
      return decision;
    },
    onSuccess: (decision, { review }) =>
      toast.success(`${review.name}: change ${decision === "approve" ? "approved, the tool is offered again" : "rejected, the tool stays held back"}`),
    onError: (error) => toast.error(error.message),
    onSettled: (_decision, _error, { review }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit(catalogId, review.name) });
    },
  });
}
