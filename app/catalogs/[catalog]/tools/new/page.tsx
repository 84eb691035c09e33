import Link from "next/link";
import { ToolEditor } from "@/components/tool-editor";

export const metadata = { title: "New tool" };

export default async function NewToolPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  return (
    <div className="stack">
      <div className="crumbs">
        <Link href={`/catalogs/${catalog}/tools`}>Tools</Link> / new custom tool
      </div>
      <ToolEditor catalogId={catalog} />
    </div>
  );
}
