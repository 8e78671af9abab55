/** One problem of a config file: the field's path and what is wrong with it, with the fix. */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
}
