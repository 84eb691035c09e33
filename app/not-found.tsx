import Link from "next/link";

export default function NotFound() {
  return (
    <main className="page">
      <div className="panel empty">
        <strong>Not found</strong>
        That catalog or tool does not exist (any more). <Link href="/">Back to the catalogs</Link>
      </div>
    </main>
  );
}
