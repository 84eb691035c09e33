/** The widths issue 25's walk used: a desktop at 1440 px and a phone held upright at 390 px (an iPhone 14's viewport). */
export const DESKTOP_AND_PHONE = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
