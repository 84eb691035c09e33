import Link from "next/link";

// The root layout's title template reaches only the pages below it.
export const metadata = { title: { absolute: "Not found · Toolshed" } };

export default function NotFound() {
  return (
    <main className="page">
      <div className="panel empty">
        <strong>Not found</strong>
        This page does not exist, or your role does not reach it. <Link href="/">Back to the catalogs</Link>
      </div>
    </main>
  );
}
