"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { useState } from "react";
import { Toaster } from "sonner";
import { useToastPlacement } from "./toast-placement";

export function Providers({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1 } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <NuqsAdapter>{children}</NuqsAdapter>
      <PlacedToaster />
    </QueryClientProvider>
  );
}

/** Toasts away from the control just used, a stale error gone once a newer toast appears (toast-placement.ts). */
function PlacedToaster() {
  return <Toaster position={useToastPlacement()} richColors closeButton />;
}
