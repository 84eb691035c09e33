import { refuseOtherMethods } from "@/lib/http";

export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
