// The images of a stream-json `user` line (docs/stream-json.md, "Input"): each either inline,
// `{"data":"<base64>","media_type":"image/png"}` (`media_type` optional, and checked against
// the bytes' signature when given), or a file, `{"path":"shot.png"}` (relative to the
// directory exec was started in). Read and checked as `--image` is; a bad one is one line that
// exec-stdin.ts answers with an error line, and the session goes on.
import * as z from "zod";
import { UsageError } from "../errors.ts";
import { type AttachedImage, checkImage, readImageFile } from "../session/images.ts";

export const inputImageSchema = z.union([
  z.object({ data: z.string(), media_type: z.string().optional() }).strict(),
  z.object({ path: z.string().min(1) }).strict(),
]);
type InputImage = z.infer<typeof inputImageSchema>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The line's images, read and checked; throws a UsageError naming the first bad one. */
export function inputImages(images: InputImage[] | undefined): AttachedImage[] {
  return (images ?? []).map((image, at) => {
    if ("path" in image) return readImageFile(image.path);
    const where = `images.${at}`;
    if (image.data.length % 4 !== 0 || !BASE64.test(image.data)) {
      throw new UsageError(`${where}: data is not base64`);
    }
    const checked = checkImage(Buffer.from(image.data, "base64"), where);
    if (image.media_type !== undefined && image.media_type !== checked.mediaType) {
      throw new UsageError(
        `${where}: media_type is ${image.media_type} but the data is ${checked.mediaType}`,
      );
    }
    return checked;
  });
}
