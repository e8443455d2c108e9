// heic-decode ships no types: what Cabinet calls of it.
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 4 bytes a pixel. */
    data: Uint8ClampedArray;
  }
  interface HeicImage {
    /** From the file's header, before any pixel is decoded. */
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface Decode {
    (options: { buffer: ArrayBufferLike | Uint8Array }): Promise<DecodedImage>;
    all(options: { buffer: ArrayBufferLike | Uint8Array }): Promise<HeicImage[]>;
  }
  const decode: Decode;
  export default decode;
}
