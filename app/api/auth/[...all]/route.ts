import { getAuth } from "@/app/_services/auth";

/** better-auth's endpoints: sign-in, sign-out, session, OAuth callbacks (public sign-up is off). */
export const GET = (request: Request) => getAuth().handler(request);
export const POST = (request: Request) => getAuth().handler(request);
