import type { z } from 'zod';
import { getApp } from '../../common/catalogue';
import type { Connector } from './types';

/** A connector as written: the schema types drive the types of `ctx.credentials` and `ctx.config`. */
export type ConnectorDefinition<
  CredentialsSchema extends z.ZodType,
  ConfigSchema extends z.ZodType,
> = Connector<z.output<CredentialsSchema>, z.output<ConfigSchema>> & {
  readonly credentialsSchema: CredentialsSchema;
  readonly configSchema: ConfigSchema;
};

/**
 * Type-checks a connector against the contract (credential field keys must be credential keys, every method
 * receives a context typed by the schemas) and rejects, at import time, what the types cannot catch.
 */
export function defineConnector<CredentialsSchema extends z.ZodType, ConfigSchema extends z.ZodType>(
  definition: ConnectorDefinition<CredentialsSchema, ConfigSchema>,
): Connector<z.output<CredentialsSchema>, z.output<ConfigSchema>> {
  if (!getApp(definition.shortname)) throw new Error(`${definition.shortname} is not in the app catalogue`);
  const keys = definition.credentialFields.map((field) => field.key);
  if (new Set(keys).size !== keys.length)
    throw new Error(`${definition.shortname}: credential fields repeat a key`);
  return Object.freeze(definition);
}
