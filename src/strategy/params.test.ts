import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../core/index.js';
import { defineStrategy } from './define.js';
import { parseParamString, resolveParams } from './params.js';

const plugin = defineStrategy({
  name: 'params-probe',
  description: 'a plugin with one decimal and one integer param',
  params: z.object({ size: z.string().default('0.1'), period: z.number().int().default(5) }),
  markets: ['BTCUSD'],
  create: () => ({}),
});

describe('--params with keys an object carries by itself', () => {
  // a number for a key the schema lacks but every object has (constructor, toString, hasOwnProperty)
  // is an unknown or forbidden key, named in our words, never a crash reading the prototype's function
  for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__'])
    it(`refuses ${key}=1 naming the key`, () => {
      const run = () => resolveParams(plugin, parseParamString(`${key}=1`));
      expect(run).toThrow(InputError);
      expect(run).toThrow(new RegExp(`${key === '__proto__' ? '__proto__' : key}: `));
    });

  it('still reads a decimal param as written', () => {
    expect(resolveParams(plugin, parseParamString('size=0.25,period=7'))).toEqual({ size: '0.25', period: 7 });
  });
});
