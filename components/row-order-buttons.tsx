"use client";

/** Move a list's row up or down, or remove it: the same three buttons wherever rows are ordered by hand. */
export function RowOrderButtons({ index, count, onMove, onRemove }: { index: number; count: number; onMove: (by: -1 | 1) => void; onRemove: () => void }) {
  return (
    <>
      <button type="button" className="small-button" onClick={() => onMove(-1)} disabled={index === 0} aria-label="Move up">
        ↑
      </button>
      <button type="button" className="small-button" onClick={() => onMove(1)} disabled={index === count - 1} aria-label="Move down">
        ↓
      </button>
      <button type="button" className="small-button danger" onClick={onRemove}>
        Remove
      </button>
    </>
  );
}
