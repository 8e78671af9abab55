import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import { type IdSource } from '../ids.js';
import { type JsonObject, arrayValue, enumValue, onlyFields, requiredText } from './input.js';

export const DOCUMENT_TYPES = [
  'OTHER_DOCUMENTS',
  'APPLICATION',
  'ORGANIZATIONAL_DOCUMENTS',
  'CERTIFICATE_OF_GOOD_STANDING',
  'TAX_IDENTIFICATION',
  'IDENTITY_VERIFICATION',
  'PROOF_OF_RESIDENCY',
  'PROOF_OF_FUNDS',
  'SAMPLE_INVOICE',
  'OPERATING_AGREEMENT',
  'TRUST_DOCUMENTS',
  'MONEY_SERVICE_DOCUMENTS',
  'INVESTMENT_DOCUMENTS',
  'CURP',
  'AML_DOCUMENTS',
  'FUND_STRUCTURE_CHART',
  'FUND_MANAGER_REGISTRATION',
  'MEMORANDUM_OF_ASSOCIATION',
  'ORGANIZATIONAL_CHART',
  'FOUNDATION_BY_LAWS',
  'APPOINTMENT_OF_GUARDIAN_EVIDENCE',
  'LEGAL_DOMICILE_OF_BENEFICIAL_OWNERS',
  'GOVERNING_BODY_MEMBER_NAMES',
] as const;
/** Accepted file formats (step 2 checks the file's leading bytes). */
export const DOCUMENT_FORMATS = ['pdf', 'jpg', 'png'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];
/** The platform's size limit: under 100 MB. */
export const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

/** One document of an identity: requested (step 1), then uploaded (step 2); archived when a newer one of its type arrives. */
export interface SimDocument {
  readonly fileId: string;
  readonly identityId: string;
  readonly owner: string;
  readonly name: string;
  readonly documentTypes: readonly string[];
  readonly requestedAt: number;
  uploadedAt: number | undefined;
  archivedAt: number | undefined;
  sizeBytes: number | undefined;
  format: DocumentFormat | undefined;
}

/**
 * Identity documents (a closed beta on the platform: the sandbox serves them only when configured
 * to). Step 1 reserves a file id and an upload address; step 2 receives the bytes. A file name is
 * unique per identity (409); uploading a document type again archives the earlier document.
 */
export class DocumentStore {
  private readonly byId = new Map<string, SimDocument>();

  constructor(private readonly ids: IdSource) {}

  request(identityId: string, owner: string, body: JsonObject, nowMs: number): SimDocument {
    onlyFields(body, ['name', 'document_types']);
    const name = requiredText(body.name, 'name', '"passport.pdf"', 260);
    const types = arrayValue(body.document_types, 'document_types', DOCUMENT_TYPES.length).map((t, i) =>
      enumValue(t, `document_types[${i}]`, DOCUMENT_TYPES),
    );
    if (types.length === 0) throw new InputError('document_types', `required: at least one of ${DOCUMENT_TYPES.join(', ')}`);
    if (this.of(identityId).some((d) => d.name === name && d.archivedAt === undefined))
      throw new SimError(
        'already-exists',
        `identity ${identityId} already has a document named ${JSON.stringify(name)}: use another file name`,
      );
    const doc: SimDocument = {
      fileId: this.ids.next('documents'),
      identityId,
      owner,
      name,
      documentTypes: types,
      requestedAt: nowMs,
      uploadedAt: undefined,
      archivedAt: undefined,
      sizeBytes: undefined,
      format: undefined,
    };
    this.byId.set(doc.fileId, doc);
    return doc;
  }

  /** Step 2: the bytes arrived (size and format already checked by the receiver). */
  upload(fileId: string, sizeBytes: number, format: DocumentFormat, nowMs: number): SimDocument {
    const doc = this.byId.get(fileId);
    if (doc === undefined) throw new SimError('not-found', `no upload was requested for file ${fileId}: call DocumentUpload first`);
    for (const other of this.of(doc.identityId)) {
      if (
        other !== doc &&
        other.uploadedAt !== undefined &&
        other.archivedAt === undefined &&
        other.documentTypes.some((t) => doc.documentTypes.includes(t))
      )
        other.archivedAt = nowMs;
    }
    doc.uploadedAt = nowMs;
    doc.sizeBytes = sizeBytes;
    doc.format = format;
    return doc;
  }

  /** Uploaded documents (archived ones too) and the document types requested but not yet uploaded. */
  list(identityId: string): { documents: SimDocument[]; pendingTypes: string[] } {
    const docs = this.of(identityId);
    const uploaded = docs.filter((d) => d.uploadedAt !== undefined);
    const pending = new Set(docs.filter((d) => d.uploadedAt === undefined).flatMap((d) => d.documentTypes));
    for (const d of uploaded) if (d.archivedAt === undefined) for (const t of d.documentTypes) pending.delete(t);
    return { documents: uploaded, pendingTypes: [...pending] };
  }

  saved(): SimDocument[] {
    return [...this.byId.values()];
  }

  restore(docs: readonly SimDocument[] | undefined): void {
    for (const d of docs ?? []) this.byId.set(d.fileId, d);
  }

  private of(identityId: string): SimDocument[] {
    return [...this.byId.values()].filter((d) => d.identityId === identityId);
  }
}

/** The format of a file from its leading bytes (pdf, jpg, png), or undefined. */
export function sniffFormat(head: Buffer): DocumentFormat | undefined {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  return undefined;
}
