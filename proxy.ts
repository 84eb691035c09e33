import { NextResponse, type NextRequest } from "next/server";
import { configuredOrigins, hostAllowed, REQUESTED_PATH_HEADER } from "@/lib/auth/origin";

/**
 * Every request must name one of the configured origins in its Host header: a page on another
 * site that points its own hostname at this server (DNS rebinding) gets nothing.
 */
export function proxy(request: NextRequest) {
  if (hostAllowed(request.headers.get("host"), configuredOrigins())) {
    // Pages that send a visitor to sign in bring them back to the very address they asked for.
    const headers = new Headers(request.headers);
    headers.set(REQUESTED_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.next({ request: { headers } });
  }
  const message = "This host name is not one Toolshed is configured for (TOOLSHED_URL).";
  if (request.nextUrl.pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "bad_request", message } }, { status: 421 });
  }
  return new NextResponse(message, { status: 421, headers: { "content-type": "text/plain; charset=utf-8" } });
}

export const config = {
  // Health checks come from load balancers that address the server by IP: they carry no data.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/health$).*)"],
};
