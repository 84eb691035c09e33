"use client";

import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { updateToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import type { ToolRecord } from "@/db/queries/tools";
import { queryKeys, type ToolPage } from "./api-client";
import { useCan } from "./catalog-access";

/** A tool's on/off switch; only editors may flip it. */
export function EnabledSwitch({ tool, onToggle }: { tool: ToolRecord; onToggle: (enabled: boolean) => void }) {
  const canEdit = useCan("write");
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      disabled={!canEdit}
      title={canEdit ? undefined : "Editors can enable and disable tools"}
      aria-checked={tool.enabled}
      aria-label={`${tool.name} enabled`}
      onClick={() => onToggle(!tool.enabled)}
      data-testid={`toggle-${tool.name}`}
    />
  );
}

/**
 * Enables or disables a tool, showing the change at once in the full list and in every loaded page
 * of the table, and rolling back if the server refuses; then both are read again.
 */
export function useEnabledToggle(catalogId: string) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const key = queryKeys.tools(catalogId);
  return useMutation({
    mutationFn: async ({ name, enabled }: { name: string; enabled: boolean }) => {
      const result = await updateToolAction(catalogId, name, { enabled });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onMutate: async ({ name, enabled }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueriesData({ queryKey: key });
      const flip = (tool: ToolRecord) => (tool.name === name ? { ...tool, enabled } : tool);
      queryClient.setQueryData<ToolRecord[]>(key, (tools) => tools?.map(flip));
      queryClient.setQueryData<ToolRecord>(queryKeys.tool(catalogId, name), (tool) => tool && flip(tool));
      queryClient.setQueriesData<InfiniteData<ToolPage>>({ queryKey: queryKeys.toolPages(catalogId) }, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, tools: page.tools.map(flip) })) } : data,
      );
      return { previous };
    },
    onError: (error, _vars, context) => {
      for (const [queryKey, data] of context?.previous ?? []) queryClient.setQueryData(queryKey, data);
      toast.error(error.message);
    },
    onSuccess: (tool) => {
      toast.success(`${tool.name} ${tool.enabled ? "enabled" : "disabled"}`);
      router.refresh();
    },
    onSettled: (tool) => {
      // The prefix covers the full list and the table's pages.
      void queryClient.invalidateQueries({ queryKey: key });
      if (tool) void queryClient.invalidateQueries({ queryKey: queryKeys.audit(catalogId, tool.name) });
    },
  });
}
