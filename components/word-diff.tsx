import { wordDiff } from "@/lib/text/word-diff";

/**
 * Two versions of a text as one, word by word: removed words struck through, added ones marked,
 * the rest as it was. Nothing is cut: the whole text shows, however long. Screen readers hear
 * "removed" and "added" before each change.
 */
export function WordDiff({ before, after, testId }: { before: string; after: string; testId?: string }) {
  return (
    <span className="word-diff" data-testid={testId}>
      {wordDiff(before, after).map((part, index) =>
        part.kind === "same" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move; their position is their identity
          <span key={index}>{part.text}</span>
        ) : part.kind === "added" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <ins key={index} className="diff-added">
            <span className="visually-hidden">added: </span>
            {part.text}
          </ins>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <del key={index} className="diff-removed">
            <span className="visually-hidden">removed: </span>
            {part.text}
          </del>
        ),
      )}
    </span>
  );
}
