import type { ComponentChildren } from 'preact';

/**
 * The question asked before deleting something, in place of the list item's actions: a group named
 * "Delete {name}?", the question and what follows, then the delete button (focused on opening) and "Keep it".
 */
export function ConfirmDelete(props: {
  class: string;
  name: string;
  /** The question and its consequences, in a paragraph. */
  children: ComponentChildren;
  /** The delete button's text: "Delete passkey". */
  deleteLabel: string;
  busy: boolean;
  onDelete: () => void;
  onKeep: () => void;
  /** The group's name when the act is not a delete ("Reset the portfolio?"); default "Delete {name}?". */
  question?: string;
}) {
  return (
    <div class={props.class} role="group" aria-label={props.question ?? `Delete ${props.name}?`}>
      <p>{props.children}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={props.onDelete} disabled={props.busy} autoFocus>
          {props.deleteLabel}
        </button>
        <button type="button" class="secondary" onClick={props.onKeep} disabled={props.busy}>
          Keep it
        </button>
      </div>
    </div>
  );
}

/**
 * What "Delete" in the confirmation does: the item is busy and its last problem cleared while `request` runs. On
 * success `deleted` runs and the item stays busy (it is leaving the list); on failure it is no longer busy and
 * `refused` says why.
 */
export async function deleteItem(
  request: () => Promise<unknown>,
  item: { setBusy: (busy: boolean) => void; setProblem: (problem: string | undefined) => void; deleted: () => void; refused: (error: unknown) => void },
): Promise<void> {
  item.setProblem(undefined);
  item.setBusy(true);
  try {
    await request();
    item.deleted();
  } catch (error) {
    item.setBusy(false);
    item.refused(error);
  }
}
