/** Text made safe for XML 1.0 content and attribute values. Pure. */

// Characters XML 1.0 does not allow at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF):
// escaping cannot save them, so a name carrying one loses it rather than making the file unreadable.
// eslint-disable-next-line no-control-regex
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const escapeXml = (text: string) => text.replace(NOT_IN_XML, '').replace(/[&<>"']/g, (char) => ENTITIES[char]);

/** `<name>text</name>`, escaped. */
export const element = (name: string, text: string | number) => `<${name}>${typeof text === 'number' ? text : escapeXml(text)}</${name}>`;
