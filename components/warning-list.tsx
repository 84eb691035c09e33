import type { Warning } from "@/lib/warnings";
import { withContentKeys } from "./content-keys";

const WARNING_STYLE = { border: "1px solid #f0d9a8", background: "var(--warn-soft)", color: "var(--warn)", borderRadius: 6, padding: "8px 12px" };

/** Warnings shown where the thing they are about is edited; errors (what will fail) in red. */
export function WarningList({ warnings, testId }: { warnings: Warning[]; testId: string }) {
  if (warnings.length === 0) return null;
  return (
    <div className="stack" role="status" data-testid={testId}>
      {withContentKeys(warnings, (warning) => warning.message).map(([key, warning]) => (
        <div key={key} className={warning.level === "error" ? "error-box small" : "small"} style={warning.level === "error" ? undefined : WARNING_STYLE}>
          <b>{warning.level === "error" ? "Will fail:" : "Warning:"}</b> {warning.message}
        </div>
      ))}
    </div>
  );
}
