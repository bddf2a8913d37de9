import { describe, expect, it } from "vitest";
import { decodeText } from "../src/extract/decode-text.ts";
import { detectCharset } from "../src/extract/detect-charset.ts";

/**
 * Pages that declare no encoding and are not UTF-8: the encoding is read off the text. Each sample is
 * encoded by inverting the platform's own decoder for the encoding.
 */
function encoder(encoding: string): (text: string) => Uint8Array {
  const bytesOf = new Map<string, number[]>();
  const decoder = new TextDecoder(encoding, { fatal: true });
  const learn = (bytes: number[]): void => {
    try {
      const char = decoder.decode(new Uint8Array(bytes));
      if ([...char].length === 1 && !bytesOf.has(char)) bytesOf.set(char, bytes);
    } catch {
      // not a character in this encoding
    }
  };
  for (let lead = 0x80; lead <= 0xff; lead++) learn([lead]);
  for (let lead = 0x81; lead <= 0xfe; lead++) for (let trail = 0x40; trail <= 0xfe; trail++) learn([lead, trail]);
  return (text) =>
    new Uint8Array(
      [...text].flatMap((char) => {
        if (char < "\u0080") return [char.charCodeAt(0)];
        const bytes = bytesOf.get(char);
        if (!bytes) throw new Error(`${char} is not in ${encoding}`);
        return bytes;
      }),
    );
}

const page = (text: string): string => `<!doctype html><html><head><title>Page</title></head><body><h1>Title</h1><p>${text}</p><p>${text}</p></body></html>`;

const SAMPLES: [string, string, string][] = [
  ["German", "windows-1252", "Die Größe der Häuser in München überrascht viele Besucher. Außerdem gibt es schöne Straßen."],
  ["French", "windows-1252", "Le café est très réputé à Paris ; les élèves préfèrent le thé. Où est la bibliothèque ?"],
  ["Spanish", "windows-1252", "El niño comió una manzana en la montaña. ¿Dónde está la estación?"],
  ["Polish", "windows-1250", "Ciężar dyskusji przeniesie się na posiedzenie. Na lepszą konkurencyjność gospodarki w Łodzi."],
  ["Czech", "windows-1250", "Příliš žluťoučký kůň úpěl ďábelské ódy. Řekl, že to není pravda."],
  ["Russian", "windows-1251", "Привет, мир! Это пример текста на русском языке. Москва - столица России."],
  ["Russian", "koi8-r", "Привет, мир! Это пример текста на русском языке. Москва - столица России."],
  ["Greek", "windows-1253", "Η γρήγορη καφέ αλεπού πηδάει πάνω από το σκυλί. Η Αθήνα είναι η πρωτεύουσα."],
  ["Turkish", "windows-1254", "Türkçe bir metin örneği. İstanbul güzel bir şehirdir, çok büyüktür ve ağaçlıdır."],
  ["Lithuanian", "windows-1257", "Lietuvių kalba yra baltų kalba. Vilnius yra sostinė, čia gyvena žmonės."],
  ["Hebrew", "windows-1255", "שלום עולם, זהו טקסט בעברית. ירושלים היא עיר הבירה של המדינה."],
  ["Arabic", "windows-1256", "مرحبا بالعالم، هذا نص باللغة العربية. القاهرة هي عاصمة مصر."],
  ["Japanese", "shift_jis", "日本語のテキストです。東京は日本の首都で、とても大きな都市です。"],
  ["Japanese", "euc-jp", "日本語のテキストです。東京は日本の首都で、とても大きな都市です。"],
  ["Simplified Chinese", "gbk", "这是一个中文文本的例子。北京是中国的首都，也是一个很大的城市。"],
  ["Traditional Chinese", "big5", "這是一個中文文本的例子。台北是一個很大的城市，有很多人。"],
  ["Korean", "euc-kr", "이것은 한국어 텍스트의 예입니다. 서울은 한국의 수도이며 매우 큰 도시입니다."],
];

describe("detectCharset: unlabelled legacy text", () => {
  it.each(SAMPLES)("%s in %s", (_language, encoding, text) => {
    expect(detectCharset(encoder(encoding)(page(text)))).toBe(encoding);
  });

  it("decodeText reads an unlabelled, non-UTF-8 page in the detected encoding", () => {
    const text = "Привет, мир! Это пример текста на русском языке.";
    expect(decodeText(encoder("windows-1251")(page(text)), "text/html", "html")).toEqual({ text: page(text), charset: "windows-1251" });
  });

  it("ISO-2022-JP shows in its escape sequences", () => {
    const bytes = new Uint8Array([..."<p>", 0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42, ..."</p>"].map((b) => (typeof b === "string" ? b.charCodeAt(0) : b)));
    expect(detectCharset(bytes)).toBe("iso-2022-jp");
  });

  it("bytes that read as nothing in particular are windows-1252, the web's default", () => {
    expect(detectCharset(new Uint8Array([0x41, 0xa0, 0x42]))).toBe("windows-1252");
  });
});
