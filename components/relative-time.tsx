import { LocalTime } from "./local-time";

function relative(iso: string, now: number): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 10) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** A time as how long ago it was from `now`; the exact time on hover. */
export function RelativeTime({ iso, now }: { iso: string; now: number }) {
  return <LocalTime iso={iso} label={relative(iso, now)} />;
}
