import { request as httpRequest } from 'node:http';
import { deflateSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import type { AddressInfo } from 'node:net';
import {
  newBusiness,
  newDocument,
  newIndividual,
  ownerBody,
  sampleJpeg,
  samplePdf,
  samplePng,
  uploadDocument,
  type DocumentBody,
} from '../support/documents.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DOCUMENT_ID = /^Document:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MB10 = 10 * 1024 * 1024;

/** The stored rows of a document (metadata and bytes), read straight from the database. */
async function storedRows(id: string): Promise<{ documents: number; contents: number }> {
  const uuid = id.split(':')[1];
  const ds = t.app.get(DataSource);
  const [d] = await ds.query<Array<{ n: string }>>('SELECT count(*) AS n FROM documents WHERE id = $1', [uuid]);
  const [c] = await ds.query<Array<{ n: string }>>(
    'SELECT count(*) AS n FROM document_contents WHERE document_id = $1',
    [uuid],
  );
  return { documents: Number(d.n), contents: Number(c.n) };
}

async function documentCount(p: TestPlatform): Promise<number> {
  const res = await p.get('/documents?limit=100');
  return (res.body as { totalCount: number }).totalCount;
}

describe('POST /documents', () => {
  it('stores a PDF for a customer (type from the bytes, name sanitized) and GET, list and download answer it', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const res = await uploadDocument(
      p,
      { documentHolder: c.id, documentType: 'PASSPORT', country: 'US', documentNumber: 'A12345678' },
      samplePdf(),
      'passport scan.png', // the name lies: the bytes decide
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(DOCUMENT_ID),
      documentHolder: c.id,
      documentType: 'PASSPORT',
      country: 'US',
      documentNumber: 'A12345678',
      fileName: 'passport scan.png',
      contentType: 'application/pdf',
      fileSize: samplePdf().length,
      reviewStatus: 'PENDING',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const doc = res.body as DocumentBody;
    expect((await p.get(`/documents/${doc.id}`)).body).toEqual(doc);
    const list = await p.get(`/documents?documentHolder=${encodeURIComponent(c.id)}`);
    expect(list.body).toMatchObject({ data: [doc], hasMore: false, totalCount: 1 });

    const file = await p
      .get(`/documents/${doc.id}/file`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (x: Buffer) => chunks.push(x));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body as Buffer, samplePdf())).toBe(0);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="passport scan.png"/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toContain('sandbox');
  });

  it('accepts PNG and JPEG, and a beneficial owner as the holder', async () => {
    const p = await TestPlatform.create(t);
    const b = await newBusiness(p);
    const owner = (await p.post('/beneficial-owners', ownerBody(b.id))).body as { id: string };
    const png = await newDocument(p, owner.id, 'DRIVERS_LICENSE', { side: 'FRONT' }, samplePng());
    const jpeg = await newDocument(p, owner.id, 'DRIVERS_LICENSE', { side: 'BACK' }, sampleJpeg());
    expect([png.contentType, jpeg.contentType]).toEqual(['image/png', 'image/jpeg']);
    expect(png.documentHolder).toBe(owner.id);
  });

  it('refuses a file that is not PDF, JPEG or PNG whatever its name, with every field error in one answer', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const before = await documentCount(p);
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await uploadDocument(p, { documentHolder: c.id, documentType: 'NOPE' }, html, 'x.pdf');
    expect(invalidFields(res)).toEqual(['country', 'documentType', 'file']);
    expect(
      invalidFields(await uploadDocument(p, { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' }, null)),
    ).toEqual(['file']);
    expect(await documentCount(p)).toBe(before);
  });

  it('answers 409 DOCUMENT_ALREADY_EXISTS for a second document of the same type for the holder, also when two race', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const first = await newDocument(p, c.id, 'PASSPORT');
    const again = expectError(
      await uploadDocument(p, { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' }),
      409,
      'DOCUMENT_ALREADY_EXISTS',
    );
    expect(again.details).toEqual({ documentId: first.id });

    const c2 = await newIndividual(p);
    const race = await Promise.all(
      [1, 2, 3].map(() => uploadDocument(p, { documentHolder: c2.id, documentType: 'NATIONAL_ID', country: 'US' })),
    );
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of race.filter((x) => x.status === 409)) expectError(r, 409, 'DOCUMENT_ALREADY_EXISTS');
  });

  it("is 404 for an unknown holder or another platform's, and 400 INVALID_REQUEST_FORMAT for a JSON body", async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const theirs = await newIndividual(other);
    expectError(
      await uploadDocument(p, { documentHolder: theirs.id, documentType: 'PASSPORT', country: 'US' }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    expectError(
      await uploadDocument(p, {
        documentHolder: 'BeneficialOwner:00000000-0000-7000-8000-000000000000',
        documentType: 'PASSPORT',
        country: 'US',
      }),
      404,
      'NOT_FOUND',
    );
    expectError(await p.post('/documents', { documentHolder: theirs.id }), 400, 'INVALID_REQUEST_FORMAT');
  });
});

describe('PUT and DELETE /documents/{id}', () => {
  it('replaces the file and/or metadata; DELETE removes row and bytes; another platform gets 404', async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const doc = await newDocument(p, c.id, 'PASSPORT');
    const put = await uploadDocument(
      p,
      { documentNumber: 'B999' },
      samplePng(),
      'new.png',
      'put',
      `/documents/${doc.id}`,
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: doc.id,
      documentNumber: 'B999',
      contentType: 'image/png',
      fileName: 'new.png',
    });
    const meta = await uploadDocument(p, { country: 'CA' }, null, '', 'put', `/documents/${doc.id}`);
    expect(meta.body).toMatchObject({ country: 'CA', contentType: 'image/png' });
    // nothing sent at all: not a multipart body
    expectError(await uploadDocument(p, {}, null, '', 'put', `/documents/${doc.id}`), 400, 'INVALID_REQUEST_FORMAT');

    expectError(await other.get(`/documents/${doc.id}`), 404, 'NOT_FOUND');
    expectError(await other.delete(`/documents/${doc.id}`), 404, 'NOT_FOUND');
    expect(await storedRows(doc.id)).toEqual({ documents: 1, contents: 1 });
    expect((await p.delete(`/documents/${doc.id}`)).status).toBe(204);
    expect(await storedRows(doc.id)).toEqual({ documents: 0, contents: 0 });
    expectError(await p.get(`/documents/${doc.id}`), 404, 'NOT_FOUND');
  });

  it('PUT to a type the holder already has is 409 DOCUMENT_ALREADY_EXISTS', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    await newDocument(p, c.id, 'PASSPORT');
    const id = await newDocument(p, c.id, 'NATIONAL_ID');
    expectError(
      await uploadDocument(p, { documentType: 'PASSPORT' }, null, '', 'put', `/documents/${id.id}`),
      409,
      'DOCUMENT_ALREADY_EXISTS',
    );
  });
});

describe('sandbox review', () => {
  it.each(['LOW_QUALITY', 'DATA_MISMATCH', 'EXPIRED', 'SUSPECTED_FRAUD', 'UNSUITABLE_DOCUMENT', 'INCOMPLETE'])(
    'documentNumber REJECT_%s rejects the document with that code',
    async (code) => {
      const p = await TestPlatform.create(t);
      const c = await newIndividual(p);
      const doc = await newDocument(p, c.id, 'PASSPORT', { documentNumber: `REJECT_${code}` });
      expect(doc).toMatchObject({ reviewStatus: 'REJECTED', rejectionCode: code });
    },
  );
});

/** Sends a request by hand: headers, then `body` (or part of it); resolves with the status and body once answered. */
function rawRequest(
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  opts: { endAfter?: boolean } = {},
): Promise<{ status: number; body: string; sent: number }> {
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = httpRequest({ host: '127.0.0.1', port, path: `${V}${path}`, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, sent }));
    });
    req.on('error', reject);
    req.flushHeaders();
    const step = 64 * 1024;
    const pump = () => {
      while (sent < body.length) {
        const part = body.subarray(sent, sent + step);
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      if (opts.endAfter !== false) req.end();
    };
    pump();
  });
}

function multipart(fields: Record<string, string>, file: Buffer, fileName: string): { body: Buffer; type: string } {
  const boundary = '----boundary' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

describe('hostile uploads', () => {
  it('a 10 MB + 1 byte file is 400 INVALID_REQUEST_FORMAT (declared length: answered before the body is sent), nothing stored', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const file = Buffer.concat([samplePdf(), Buffer.alloc(MB10 + 1 - samplePdf().length, 0x20)]);
    const { body, type } = multipart(
      { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' },
      file,
      'big.pdf',
    );
    // Chunked (no declared length): the parser stops at the limit.
    const streamed = await uploadDocument(p, { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' }, file);
    expectError(streamed, 400, 'INVALID_REQUEST_FORMAT');
    // A declared length beyond the limit: the answer comes before any of the body is sent.
    const declared = await rawRequest(
      '/documents',
      { Authorization: p.authorization, 'Content-Type': type, 'Content-Length': String(body.length + MB10) },
      Buffer.alloc(0),
      { endAfter: false },
    );
    expect(declared.status).toBe(400);
    expect(JSON.parse(declared.body)).toMatchObject({ code: 'INVALID_REQUEST_FORMAT' });
    expect(await documentCount(p)).toBe(0);
    // exactly 10 MB is accepted
    const max = Buffer.concat([samplePdf(), Buffer.alloc(MB10 - samplePdf().length, 0x20)]);
    expect(
      (await uploadDocument(p, { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' }, max)).status,
    ).toBe(201);
  });

  it('a truncated multipart body is 400 INVALID_REQUEST_FORMAT, nothing stored', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const { body, type } = multipart(
      { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' },
      samplePdf(),
      'a.pdf',
    );
    const cut = body.subarray(0, body.length - 30);
    const res = await rawRequest('/documents', { Authorization: p.authorization, 'Content-Type': type }, cut);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'INVALID_REQUEST_FORMAT' });
    expect(await documentCount(p)).toBe(0);
  });

  it('a path-traversal file name is kept only as a sanitized name', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const res = await uploadDocument(
      p,
      { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' },
      samplePdf(),
      '../../../etc/passwd;rm -rf $HOME.pdf',
    );
    expect(res.status).toBe(201);
    expect((res.body as DocumentBody).fileName).toBe('passwd_rm -rf _HOME.pdf');
    const win = await uploadDocument(
      p,
      { documentHolder: c.id, documentType: 'NATIONAL_ID', country: 'US' },
      samplePdf(),
      '..\\..\\boot.ini',
    );
    expect((win.body as DocumentBody).fileName).toBe('boot.ini');
  });

  it('a polyglot (PDF header on an HTML body), a PNG lying about its size and a zip bomb in a PDF are stored inert', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const polyglot = Buffer.from('%PDF-1.4\n<html><body><script>alert(document.cookie)</script></body></html>');
    const liar = samplePng(1_000_000, 1_000_000);
    const bomb = Buffer.concat([
      Buffer.from('%PDF-1.4\n1 0 obj <</Length 0 /Filter /FlateDecode>> stream\n'),
      deflateBomb(),
      Buffer.from('\nendstream endobj\n%%EOF\n'),
    ]);
    for (const [type, bytes] of [
      ['PASSPORT', polyglot],
      ['NATIONAL_ID', liar],
      ['UTILITY_BILL', bomb],
    ] as const) {
      const doc = await newDocument(p, c.id, type, {}, bytes);
      expect(doc.fileSize).toBe(bytes.length);
      const file = await p.get(`/documents/${doc.id}/file`);
      expect(file.headers['content-type']).toBe('application/octet-stream');
      expect(file.headers['content-disposition']).toMatch(/^attachment/);
    }
  });
});

/** 64 MB of zeros deflated (about 64 KB): never inflated by the service. */
function deflateBomb(): Buffer {
  return deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
}
