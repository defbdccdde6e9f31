/** The standard normal quantile for a two-sided 95% interval (and alpha 0.05): z(0.975). */
export const Z_95 = 1.959963984540054;

/** The standard normal quantile for 80% power: z(0.80). */
export const Z_POWER_80 = 0.8416212335729143;
