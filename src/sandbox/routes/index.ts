import { type Route } from '../router.js';
import { MARKET_DATA_ROUTES } from './market-data.js';
import { ORDER_ROUTES } from './orders.js';
import { PROFILE_ROUTES } from './profiles.js';
import { QUOTE_ROUTES } from './quotes.js';
import { TRANSFER_ROUTES } from './transfers.js';
import { ACCOUNT_ROUTES } from './accounts.js';
import { CONVERSION_ROUTES } from './conversions.js';
import { CRYPTO_ROUTES } from './crypto.js';
import { FIAT_ROUTES } from './fiat.js';
import { IDENTITY_ROUTES } from './identities.js';
import { SETTLEMENT_ROUTES } from './settlements.js';
import { TAX_FORM_ROUTES } from './tax-forms.js';
import { EVENT_ROUTES } from './events.js';
import { UNSIMULATED_ROUTES } from './unsimulated.js';

/**
 * The sandbox's router table: every operation of the platform API v2, one array per area (those
 * over resources the sandbox does not simulate in `unsimulated.ts`).
 */
export const ROUTES: readonly Route[] = [
  ...MARKET_DATA_ROUTES,
  ...PROFILE_ROUTES,
  ...ORDER_ROUTES,
  ...QUOTE_ROUTES,
  ...TRANSFER_ROUTES,
  ...IDENTITY_ROUTES,
  ...ACCOUNT_ROUTES,
  ...FIAT_ROUTES,
  ...CRYPTO_ROUTES,
  ...SETTLEMENT_ROUTES,
  ...CONVERSION_ROUTES,
  ...TAX_FORM_ROUTES,
  ...EVENT_ROUTES,
  ...UNSIMULATED_ROUTES,
];
