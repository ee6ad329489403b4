import { deflateSync } from 'node:zlib';
import { business, individual } from './customers.js';
import { newCustomer, type Customer } from './fixtures.js';
import { V, type TestPlatform } from './test-app.js';

/** A small valid PDF (what file-type recognises: the `%PDF-` header). */
export function samplePdf(text = 'sample'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n% ${text}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A PNG whose header claims `width` x `height` (a 1x1 image, or a lie about its size). */
export function samplePng(width = 1, height = 1): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The start of a JPEG (JFIF): enough for file-type. */
export function sampleJpeg(): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01]),
    Buffer.from([0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
  ]);
}

export interface DocumentBody {
  id: string;
  documentHolder: string;
  documentType: string;
  fileName: string;
  contentType: string;
  fileSize: number;
  reviewStatus: string;
  rejectionCode?: string;
  [member: string]: unknown;
}

/** POST /documents as multipart: `fields` as text parts, `file` in `file`. */
export function uploadDocument(
  p: TestPlatform,
  fields: Record<string, string>,
  file: Buffer | null = samplePdf(),
  fileName = 'scan.pdf',
  method: 'post' | 'put' = 'post',
  path = '/documents',
) {
  let r = p.t.http[method](`${V}${path}`).set('Authorization', p.authorization);
  for (const [k, v] of Object.entries(fields)) r = r.field(k, v);
  if (file) r = r.attach('file', file, { filename: fileName, contentType: 'application/octet-stream' });
  return r;
}

/** Uploads and expects 201. */
export async function newDocument(
  p: TestPlatform,
  holder: string,
  documentType: string,
  extra: Record<string, string> = {},
  file: Buffer = samplePdf(),
): Promise<DocumentBody> {
  const res = await uploadDocument(p, { documentHolder: holder, documentType, country: 'US', ...extra }, file);
  if (res.status !== 201) throw new Error(`upload ${documentType}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as DocumentBody;
}

/** A valid POST /beneficial-owners body for a business. */
export const ownerBody = (customerId: string, overrides: Record<string, unknown> = {}) => ({
  customerId,
  roles: ['UBO', 'CONTROL_PERSON'],
  ownershipPercentage: 51,
  personalInfo: {
    firstName: 'Jane',
    lastName: 'Smith',
    birthDate: '1978-06-15',
    nationality: 'US',
    email: 'jane.smith@acmecorp.com',
    address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    idType: 'SSN',
    identifier: '123-45-6789',
  },
  ...overrides,
});

export const newBusiness = (p: TestPlatform): Promise<Customer> => newCustomer(p, business());
export const newIndividual = (p: TestPlatform): Promise<Customer> => newCustomer(p, individual());

/** POST /payment-documents as multipart (`customerId`, `documentType`, the file in `file`). */
export function uploadPaymentDocument(
  p: TestPlatform,
  fields: Record<string, string>,
  file: Buffer | null = samplePdf('invoice'),
  fileName = 'invoice.pdf',
) {
  return uploadDocument(p, fields, file, fileName, 'post', '/payment-documents');
}

/** Uploads a payment document of `customerId` and expects 201. */
export async function newPaymentDocument(p: TestPlatform, customerId: string, documentType = 'INVOICE') {
  const res = await uploadPaymentDocument(p, { customerId, documentType });
  if (res.status !== 201)
    throw new Error(`payment document ${documentType}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; customerId: string; documentType: string; quoteId?: string };
}
