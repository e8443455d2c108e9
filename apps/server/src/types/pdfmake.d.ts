// The few parts of pdfmake 0.3 Cabinet uses. Its own types (@types/pdfmake) pull the DOM library into
// the server's type check, where it clashes with Node's fetch.
declare module 'pdfmake' {
  type Margin = [number, number, number, number];
  export interface ContentText {
    text: string | ContentText[] | (string | ContentText)[];
    bold?: boolean;
    italics?: boolean;
    decoration?: 'lineThrough' | 'underline';
    font?: string;
    fontSize?: number;
    background?: string;
    color?: string;
    link?: string;
    margin?: Margin;
    preserveLeadingSpaces?: boolean;
  }
  export type Content = ContentText | string | { [key: string]: unknown };
  export interface TDocumentDefinitions {
    info?: { title?: string };
    pageSize?: string;
    pageMargins?: Margin;
    defaultStyle?: { font?: string; fontSize?: number; lineHeight?: number };
    content: Content[];
  }
  interface FontFiles {
    normal: string;
    bold: string;
    italics: string;
    bolditalics: string;
  }
  const pdfmake: {
    setFonts(fonts: Record<string, FontFiles>): void;
    setUrlAccessPolicy(allow: (url: string) => boolean): void;
    setLocalAccessPolicy(allow: (file: string) => boolean): void;
    createPdf(definition: TDocumentDefinitions): { getBuffer(): Promise<Uint8Array> };
  };
  export default pdfmake;
}
