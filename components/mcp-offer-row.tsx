"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { approvePromptAction } from "@/app/catalogs/[catalog]/sources/actions";
import type { McpOfferSummary } from "@/lib/gateway/federation";
import { useCan } from "./catalog-access";

type OfferPrompt = McpOfferSummary["prompts"][number];

/**
 * A server's resources and prompts, as its live connection on this instance lists them (the
 * gateway offers them as toolshed://<server>/… and <server>__<prompt>). A prompt whose definition
 * changed, or that the server added after its first listing, is held back until an editor approves it.
 */
export function McpOfferRow({ catalogId, name, offer }: { catalogId: string; name: string; offer: McpOfferSummary | null }) {
  return (
    <tr className="sources-error-row">
      <td colSpan={7}>
        <details className="small" data-testid={`mcp-offer-${name}`}>
          <summary>
            <span className="muted">Resources and prompts:</span>{" "}
            {offer === null ? (
              <span className="faint" data-testid={`mcp-offer-none-${name}`}>
                not connected on this instance
              </span>
            ) : (
              `${offer.resources.length + offer.templates.length} resource(s), ${offer.prompts.length} prompt(s)`
            )}
          </summary>
          {offer && <OfferLists catalogId={catalogId} server={name} offer={offer} />}
        </details>
      </td>
    </tr>
  );
}

function OfferLists({ catalogId, server, offer }: { catalogId: string; server: string; offer: McpOfferSummary }) {
  return (
    <div className="stack" style={{ gap: 4 }}>
      <ul data-testid={`mcp-resources-${server}`}>
        {offer.resources.map((resource) => (
          <li key={resource.uri} data-testid="mcp-resource">
            <b>{resource.name}</b> <code>{resource.uri}</code> {resource.mimeType && <span className="faint">{resource.mimeType}</span>}
          </li>
        ))}
        {offer.templates.map((template) => (
          <li key={template.uriTemplate} data-testid="mcp-resource-template">
            <b>{template.name}</b> <code>{template.uriTemplate}</code> <span className="badge">template</span>{" "}
            {template.mimeType && <span className="faint">{template.mimeType}</span>}
          </li>
        ))}
      </ul>
      <ul data-testid={`mcp-prompts-${server}`}>
        {offer.prompts.map((prompt) => (
          <PromptItem key={prompt.name} catalogId={catalogId} server={server} prompt={prompt} />
        ))}
      </ul>
    </div>
  );
}

function PromptItem({ catalogId, server, prompt }: { catalogId: string; server: string; prompt: OfferPrompt }) {
  const mayApprove = useCan("write");
  const router = useRouter();
  const approve = useMutation({
    mutationFn: async () => {
      const result = await approvePromptAction(catalogId, { server, prompt: prompt.name, digest: prompt.digest });
      if (!result.ok) throw new Error(result.error.message);
    },
    onSuccess: () => toast.success(`Approved the prompt ${prompt.name}`),
    onError: (error) => toast.error(error.message),
    onSettled: () => router.refresh(),
  });
  const args = prompt.arguments.map((argument) => `${argument.name}${argument.required ? "" : "?"}`).join(", ");
  return (
    <li data-testid="mcp-prompt" data-approved={prompt.approved}>
      <b>{prompt.name}</b>({args}) {prompt.description && <span className="muted">{prompt.description}</span>}{" "}
      {!prompt.approved && (
        <>
          <span className="badge warn">held back</span>{" "}
          {mayApprove && (
            <button type="button" className="small-button" onClick={() => approve.mutate()} disabled={approve.isPending} data-testid="mcp-prompt-approve">
              Approve
            </button>
          )}
        </>
      )}
    </li>
  );
}
