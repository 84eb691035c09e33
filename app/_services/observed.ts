import "server-only";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE } from "@opentelemetry/semantic-conventions";
import { recordHttpRequest } from "@/lib/observability/metrics";
import { routePattern } from "@/lib/observability/routes";
import { inSpan } from "@/lib/observability/tracing";

const CATALOG_ROUTE = "/api/catalogs/{catalog}";

/**
 * A route handler that is measured and traced: a span per request named by its method and route
 * pattern (its status, and the catalog of a catalog's route, as attributes), and the request in
 * the HTTP metrics, timed until its response's headers (a stream's body may go on). Nothing of
 * the request itself (headers, query, body) is recorded.
 */
export function observed<A extends [Request, ...unknown[]]>(handler: (...args: A) => Promise<Response> | Response) {
  return (...args: A): Promise<Response> => {
    const [request] = args;
    const started = performance.now();
    const { method } = request;
    const { pathname } = new URL(request.url);
    const route = routePattern(pathname);
    const attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: method,
      [ATTR_HTTP_ROUTE]: route,
      ...(route.startsWith(CATALOG_ROUTE) ? { "toolshed.catalog": pathname.split("/")[3] } : {}),
    };
    const finish = (status: number) => recordHttpRequest(method, route, status, (performance.now() - started) / 1000);
    return inSpan(
      `${method} ${route}`,
      attributes,
      async (span) => {
        let response: Response;
        try {
          response = await handler(...args);
        } catch (error) {
          finish(500);
          throw error;
        }
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.status);
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        finish(response.status);
        return response;
      },
      SpanKind.SERVER,
    );
  };
}
