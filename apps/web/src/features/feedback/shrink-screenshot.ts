import { SCREENSHOT_MAX_BYTES } from './feedback-rules';

/** Longest side and JPEG quality, tried in turn until the picture fits. */
const ATTEMPTS = [
  [1600, 0.8],
  [1280, 0.7],
  [1024, 0.6],
  [800, 0.5],
  [640, 0.4],
] as const;

const toJpeg = (canvas: HTMLCanvasElement, quality: number) =>
  new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));

/**
 * A screenshot small enough to go with the report: the file itself when it fits, else the picture
 * drawn smaller and saved as JPEG (a phone's screenshot is 0.3–2 MB; drawn at 1 280 px and 70 %
 * quality it is about 100 kB). Null when the browser cannot read the picture or it does not fit even
 * at 640 px.
 */
export async function fittingScreenshot(file: File, maxBytes = SCREENSHOT_MAX_BYTES): Promise<File | null> {
  if (file.size <= maxBytes) return file;
  let picture: ImageBitmap;
  try {
    picture = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d');
    if (!context) return null;
    for (const [longestSide, quality] of ATTEMPTS) {
      const scale = Math.min(1, longestSide / Math.max(picture.width, picture.height));
      canvas.width = Math.max(1, Math.round(picture.width * scale));
      canvas.height = Math.max(1, Math.round(picture.height * scale));
      // JPEG has no transparency: a transparent screenshot gets a white background, not black.
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(picture, 0, 0, canvas.width, canvas.height);
      const smaller = await toJpeg(canvas, quality);
      if (smaller && smaller.size <= maxBytes) {
        const name = `${file.name.replace(/\.[^.]*$/, '') || 'screenshot'}.jpg`;
        return new File([smaller], name, { type: 'image/jpeg', lastModified: file.lastModified });
      }
    }
    return null;
  } finally {
    picture.close();
  }
}
