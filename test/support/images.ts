// Small real images for the image tests: a 1x1 PNG (a red pixel) and a 1x1 GIF, as bytes, and
// the data URL each wire format carries. Built in memory; nothing downloads.
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const PNG = Buffer.from(PNG_BASE64, "base64");
export const GIF = Buffer.from(
  "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==",
  "base64",
);
