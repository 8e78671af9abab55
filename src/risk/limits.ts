/** The risk limits' schema lives with the rest of the configuration; the gate uses these types. */
export { RiskLimitsSchema, DEFAULT_RISK_LIMITS, type RiskLimits } from '../config/risk-schema.js';
