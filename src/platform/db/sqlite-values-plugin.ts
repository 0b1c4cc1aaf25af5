import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely';

/**
 * better-sqlite3 cannot bind booleans and reads them back as 0/1. This plugin writes booleans as
 * 0/1 and turns the named boolean columns back into booleans, so repos see what PostgreSQL returns.
 */
export class SqliteValuesPlugin implements KyselyPlugin {
  readonly #transformer = new BooleanToIntegerTransformer();

  constructor(private readonly booleanColumns: ReadonlySet<string>) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const column of this.booleanColumns) {
        const value = row[column];
        if (value === 0 || value === 1) row[column] = value === 1;
      }
    }
    return args.result;
  }
}

class BooleanToIntegerTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const transformed = super.transformValue(node);
    return typeof transformed.value === 'boolean' ? { ...transformed, value: transformed.value ? 1 : 0 } : transformed;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    const transformed = super.transformPrimitiveValueList(node);
    return {
      ...transformed,
      values: transformed.values.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)),
    };
  }
}
