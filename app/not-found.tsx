import Link from "next/link";

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
