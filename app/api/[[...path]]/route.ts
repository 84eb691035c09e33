import { observed } from "@/app/_services/observed";
import { ToolshedError } from "@/lib/errors";
import { handle } from "@/lib/http";

/**
 * Every /api path no route file claims (better-auth's /api/auth/* has its own): a 404 in the JSON
 * error shape for any method, instead of Next's HTML page.
 */
const unknownPath = observed(
  handle((request: Request) => {
    const { pathname } = new URL(request.url);
    throw new ToolshedError("not_found", `There is no API at ${pathname}; the README lists the routes.`);
  }),
);

export {
  unknownPath as DELETE,
  unknownPath as GET,
  unknownPath as HEAD,
  unknownPath as OPTIONS,
  unknownPath as PATCH,
  unknownPath as POST,
  unknownPath as PUT,
};
