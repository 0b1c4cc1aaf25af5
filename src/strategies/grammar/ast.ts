/**
 * The syntax tree. Every node carries `column`, the 1-based column of the token that names it (the operator of a
 * binary node, the name of a call); `start(node)` is the column where its text begins, for messages about a whole
 * operand.
 */

export type ArithmeticOperator = '+' | '-' | '*' | '/';
export type ComparisonOperator = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type LogicOperator = 'and' | 'or';

export type Node =
  | { readonly kind: 'number'; readonly column: number; readonly value: number }
  /** A bare name: a series (close, …) once checked. */
  | { readonly kind: 'name'; readonly column: number; readonly name: string }
  | { readonly kind: 'call'; readonly column: number; readonly name: string; readonly args: readonly Node[] }
  | { readonly kind: 'negate'; readonly column: number; readonly operand: Node }
  | { readonly kind: 'arithmetic'; readonly column: number; readonly op: ArithmeticOperator; readonly left: Node; readonly right: Node }
  | { readonly kind: 'compare'; readonly column: number; readonly op: ComparisonOperator; readonly left: Node; readonly right: Node }
  | { readonly kind: 'logic'; readonly column: number; readonly op: LogicOperator; readonly left: Node; readonly right: Node }
  | { readonly kind: 'not'; readonly column: number; readonly operand: Node };

/**
 * Where the node's text begins: a binary node begins with its left operand. Iterative, since a long chain such as
 * a + b + c + … is a left-leaning tree as deep as the chain is long.
 */
export function start(node: Node): number {
  let current = node;
  while (current.kind === 'arithmetic' || current.kind === 'compare' || current.kind === 'logic') current = current.left;
  return current.column;
}

/** Keys already built (nodes are immutable): each subtree's key is built once, not once per ancestor. */
const KEYS = new WeakMap<Node, string>();

/**
 * A canonical text of the node (no columns, no spacing, numbers as values): two subexpressions with the same key
 * compute the same column, so the evaluator computes it once.
 */
export function canonicalKey(node: Node): string {
  let key = KEYS.get(node);
  if (key === undefined) {
    key = buildKey(node);
    KEYS.set(node, key);
  }
  return key;
}

function buildKey(node: Node): string {
  switch (node.kind) {
    case 'number':
      return String(node.value);
    case 'name':
      return node.name;
    case 'call':
      return `${node.name}(${node.args.map(canonicalKey).join(',')})`;
    case 'negate':
      return `(-${canonicalKey(node.operand)})`;
    case 'not':
      return `(not ${canonicalKey(node.operand)})`;
    default:
      return `(${canonicalKey(node.left)} ${node.op} ${canonicalKey(node.right)})`;
  }
}
