/** A selector's score as a bar, against the largest score beside it: a decision's selection and a replay's score changes. */
export function ScoreBar({ score, max }: { score: number; max: number }) {
  const width = max > 0 ? Math.max(2, Math.round((score / max) * 100)) : 0;
  return (
    <div className="bar-track score-track" title={score.toFixed(3)}>
      <div className="bar" style={{ width: `${width}%` }} />
    </div>
  );
}
