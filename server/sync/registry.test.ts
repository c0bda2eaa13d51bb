import { describe, expect, it } from 'vitest';
import { getApp, supportsOrg, supportsPersonal } from '../../common/catalogue';
import { connectFormOf } from '../../common/connect-forms';
import { installPayloadOf } from '../../connectors/sdk';
import { getConnector, registeredAppNames } from './registry';

describe('the registered connectors', () => {
  it('read, for each connection kind they can make, the payload their connect dialog sends', () => {
    const names = registeredAppNames();
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const app = getApp(name);
      const connector = getConnector(name);
      if (!app || !connector) throw new Error(`${name} is registered but not in the catalogue`);
      for (const isOrg of [true, false]) {
        const declared = installPayloadOf(connector, isOrg);
        const kindExists = isOrg ? supportsOrg(app) : supportsPersonal(app);
        if (declared === undefined || !kindExists) continue;
        expect({ name, isOrg, payload: declared }).toEqual({
          name,
          isOrg,
          payload: connectFormOf(app, isOrg, 'example.com').payload,
        });
      }
    }
  });
});
