import { API, get, Page, qs } from '../api';
import { ErrorNote, Loading, Status, Time, useLoad } from '../ui';

interface Document {
  id: string;
  documentHolder: string;
  documentType: string;
  side?: string;
  fileName: string;
  fileSize: number;
  reviewStatus: string;
  rejectionCode?: string;
  createdAt: string;
}

interface BeneficialOwner {
  id: string;
  roles: string[];
  ownershipPercentage: number;
  kycStatus: string;
  personalInfo: { firstName: string; lastName: string };
}

interface Verification {
  id: string;
  verificationStatus: string;
  errors: Array<{ type: string; resourceId?: string; rejectionCode?: string }>;
  createdAt: string;
}

/**
 * The customer page's onboarding section (issue #32): the verification state (the latest
 * verification and what it still lists), the documents of the customer and of its beneficial
 * owners, each a download (the API serves files only as attachments, never rendered), and the
 * beneficial owners of a business.
 */
export function CustomerOnboarding(props: { customerId: string; business: boolean }) {
  const loaded = useLoad(async () => {
    const id = props.customerId;
    const [verifications, documents, owners] = await Promise.all([
      get<Page<Verification>>(`/verifications${qs({ customerId: id, limit: 1 })}`),
      get<Page<Document>>(`/documents${qs({ documentHolder: id, limit: 100 })}`),
      props.business
        ? get<Page<BeneficialOwner>>(`/beneficial-owners${qs({ customerId: id, limit: 100 })}`)
        : Promise.resolve(null),
    ]);
    const ownerDocuments = await Promise.all(
      (owners?.data ?? []).map((o) => get<Page<Document>>(`/documents${qs({ documentHolder: o.id, limit: 100 })}`)),
    );
    return {
      verification: verifications.data[0] ?? null,
      documents: [...documents.data, ...ownerDocuments.flatMap((d) => d.data)],
      owners: owners?.data ?? [],
    };
  }, [props.customerId, props.business]);
  const d = loaded.data;
  const ownerName = (holder: string) => {
    const o = d?.owners.find((x) => x.id === holder);
    return o ? `${o.personalInfo.firstName} ${o.personalInfo.lastName}` : 'Customer';
  };
  return (
    <section aria-labelledby="onboarding-title">
      <h2 id="onboarding-title">Verification and documents</h2>
      <ErrorNote error={loaded.error} />
      {!d ? (
        <Loading what="the verification and documents" />
      ) : (
        <>
          <h3>Verification</h3>
          {!d.verification ? (
            <p>Not submitted.</p>
          ) : (
            <p>
              <Status value={d.verification.verificationStatus} /> <span class="mono">{d.verification.id}</span>{' '}
              (submitted <Time at={d.verification.createdAt} />)
              {d.verification.errors.length > 0 && (
                <>
                  {' '}
                  · still missing or rejected:{' '}
                  {d.verification.errors
                    .map((e) => e.type + (e.rejectionCode ? ` (${e.rejectionCode})` : ''))
                    .join(', ')}
                </>
              )}
            </p>
          )}
          <h3>Documents</h3>
          {d.documents.length === 0 ? (
            <p>None.</p>
          ) : (
            <table>
              <caption class="visually-hidden">Documents of the customer and its beneficial owners</caption>
              <thead>
                <tr>
                  <th scope="col">Document</th>
                  <th scope="col">Holder</th>
                  <th scope="col">Review</th>
                  <th scope="col">Uploaded</th>
                  <th scope="col">File</th>
                </tr>
              </thead>
              <tbody>
                {d.documents.map((doc) => (
                  <tr key={doc.id}>
                    <th scope="row">
                      {doc.documentType}
                      {doc.side ? ` (${doc.side})` : ''}
                    </th>
                    <td>{ownerName(doc.documentHolder)}</td>
                    <td>
                      <Status value={doc.reviewStatus} />
                      {doc.rejectionCode ? ` ${doc.rejectionCode}` : ''}
                    </td>
                    <td>
                      <Time at={doc.createdAt} />
                    </td>
                    <td>
                      <a
                        href={`${API}/documents/${encodeURIComponent(doc.id)}/file`}
                        download={doc.fileName}
                        aria-label={`Download ${doc.documentType} (${doc.fileName})`}
                      >
                        Download
                      </a>{' '}
                      ({Math.ceil(doc.fileSize / 1024)} KB)
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {props.business && (
            <>
              <h3>Beneficial owners</h3>
              {d.owners.length === 0 ? (
                <p>None.</p>
              ) : (
                <ul>
                  {d.owners.map((o) => (
                    <li key={o.id}>
                      {o.personalInfo.firstName} {o.personalInfo.lastName} · {o.roles.join(', ')} ·{' '}
                      {o.ownershipPercentage}% · KYC {o.kycStatus}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
