import { D, ZERO, type Dec } from '../core/index.js';
import { decimalsOf, MAX_DECIMALS, pow10, unitsOf, unitsToDecimal } from '../core/units.js';

/**
 * The base and cost of a Position's fills, counted exactly in bigint units of 10^-scale (a Decimal sum
 * for each fill cost more than the rest of a report's handling); the scale grows when a finer amount
 * comes, and Decimals are made only when a getter is read. `cost` (Σ amount × price) is at
 * scale + priceScale.
 */
export class FillTally {
  private scale = 8;
  private priceScale = 2;
  private bought = 0n;
  private boughtGross = 0n;
  private cost = 0n;
  private sold = 0n;
  /** The entry's fills so far, and the price of the first as reported: one fill's volume-weighted price is its own. */
  private entryFills = 0;
  private firstPrice = '';
  private firstPriceValue: Dec | undefined;

  /**
   * @param market named by the error of a report that is not a decimal units can hold
   * @param onGrow called with the factor every amount counted elsewhere at this scale is to be multiplied by, when the scale grows
   */
  constructor(
    private readonly market: string,
    private readonly onGrow: (k: bigint) => void,
  ) {}

  /** Forgets the last entry's fills (a new entry starts). */
  reset(): void {
    this.bought = this.boughtGross = this.cost = this.sold = 0n;
    this.entryFills = 0;
    this.firstPriceValue = undefined;
  }

  /** Whether the entry has a fill. */
  get entered(): boolean {
    return this.boughtGross > 0n;
  }

  /** The volume-weighted price of the entry's fills; undefined before any. */
  get entryPrice(): Dec | undefined {
    if (this.boughtGross === 0n) return undefined;
    // one fill: cost / amount is its price (no division); more: the volume-weighted price
    if (this.entryFills === 1) return (this.firstPriceValue ??= new D(this.firstPrice));
    return unitsToDecimal(this.cost, this.scale + this.priceScale).div(unitsToDecimal(this.boughtGross, this.scale));
  }

  /** The entry price as a number: one fill's straight from its text (the number its Decimal gives). */
  get entryNumber(): number | undefined {
    if (this.boughtGross === 0n) return undefined;
    return this.entryFills === 1 ? Number(this.firstPrice) : this.entryPrice!.toNumber();
  }

  /** Bought (less base commission) minus sold, never below zero. */
  get held(): Dec {
    const held = this.bought - this.sold;
    return held > 0n ? unitsToDecimal(held, this.scale) : ZERO;
  }

  /** Base sold since the entry. */
  get soldAmount(): Dec {
    return unitsToDecimal(this.sold, this.scale);
  }

  /** Counts a buy fill: `amount` and `baseFee` in units (see baseUnits), its price as reported. */
  buy(amount: bigint, baseFee: bigint, price: string): void {
    this.bought += amount - baseFee;
    this.boughtGross += amount;
    const p = this.priceUnits(price); // before `cost` is read: a finer price rescales it
    this.cost += amount * p;
    if (++this.entryFills === 1) this.firstPrice = price;
  }

  /** Counts base sold (a sell fill's amount and a commission taken in the base asset), in units. */
  sell(units: bigint): void {
    this.sold += units;
  }

  /** The scale units are counted at now (a caller that reads two amounts compares it between them). */
  get unitScale(): number {
    return this.scale;
  }

  /** A base amount of a fill or an order in units at `scale`, which first grows to the amount's decimals if they are more. */
  baseUnits(text: string, field: string): bigint {
    const units = unitsOf(text, this.scale);
    if (units !== undefined) return units;
    const grow = this.finerBy(text, this.scale, field);
    const k = pow10(grow);
    this.scale += grow;
    this.bought *= k;
    this.boughtGross *= k;
    this.sold *= k;
    this.cost *= k;
    this.onGrow(k);
    return unitsOf(text, this.scale)!;
  }

  /** A fill's price in units at `priceScale`, which first grows to the price's decimals if they are more. */
  private priceUnits(text: string): bigint {
    const units = unitsOf(text, this.priceScale);
    if (units !== undefined) return units;
    const grow = this.finerBy(text, this.priceScale, 'price');
    this.priceScale += grow;
    this.cost *= pow10(grow);
    return unitsOf(text, this.priceScale)!;
  }

  /** How many decimals `text` needs beyond `scale`; throws, naming the report's field, for what is not a decimal units can hold. */
  private finerBy(text: string, scale: number, field: string): number {
    const decimals = decimalsOf(text);
    if (decimals === undefined || decimals > MAX_DECIMALS || unitsOf(text, decimals) === undefined) {
      throw new RangeError(
        `Position(${JSON.stringify(this.market)}): a report's ${field} ${JSON.stringify(text)} is not a decimal of at most ${MAX_DECIMALS} places`,
      );
    }
    return decimals - scale;
  }
}
