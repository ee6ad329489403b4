import { get, Page, qs } from '../api';
import { Named, useNames } from '../names';
import { ErrorNote, Link, Loading, Money, Status, Time, useLoad } from '../ui';

interface Quote {
  id: string;
  status: string;
  source: { accountId?: string; sourceType: string };
  destination: { accountId?: string; umaAddress?: string };
  sendingCurrency: { code: string; decimals: number };
  receivingCurrency: { code: string; decimals: number };
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  transactionId: string;
  createdAt: string;
  expiresAt: string;
}

/** The customer page's Quotes section: the customer's latest quotes (`GET /quotes?customerId=`), each linking its transaction. */
export function CustomerQuotes(props: { customerId: string }) {
  const loaded = useLoad(
    () => get<Page<Quote>>(`/quotes${qs({ customerId: props.customerId, limit: 20 })}`),
    [props.customerId],
  );
  const names = useNames((loaded.data?.data ?? []).map((q) => q.destination.accountId));
  return (
    <section aria-labelledby="quotes-title">
      <h2 id="quotes-title">Quotes</h2>
      <ErrorNote error={loaded.error} />
      {!loaded.data ? (
        <Loading what="quotes" />
      ) : loaded.data.data.length === 0 ? (
        <p>None.</p>
      ) : (
        <table>
          <caption class="visually-hidden">The customer's quotes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Quote</th>
              <th scope="col">Status</th>
              <th scope="col">To</th>
              <th scope="col">Sends</th>
              <th scope="col">Receives</th>
              <th scope="col">Fees</th>
              <th scope="col">Transaction</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((q) => (
              <tr key={q.id}>
                <th scope="row" class="mono">
                  {q.id}
                </th>
                <td>
                  <Status value={q.status} />
                </td>
                <td>
                  {q.destination.accountId ? (
                    <Named id={q.destination.accountId} names={names} />
                  ) : (
                    (q.destination.umaAddress ?? '—')
                  )}
                </td>
                <td>
                  <Money
                    amount={q.totalSendingAmount}
                    currency={q.sendingCurrency.code}
                    decimals={q.sendingCurrency.decimals}
                  />
                </td>
                <td>
                  <Money
                    amount={q.totalReceivingAmount}
                    currency={q.receivingCurrency.code}
                    decimals={q.receivingCurrency.decimals}
                  />
                </td>
                <td>
                  <Money
                    amount={q.feesIncluded}
                    currency={q.sendingCurrency.code}
                    decimals={q.sendingCurrency.decimals}
                  />
                </td>
                <td class="mono">
                  {q.status === 'PENDING' || q.status === 'EXPIRED' || q.status === 'PENDING_AUTHORIZATION' ? (
                    '—'
                  ) : (
                    <Link to={`/transactions/${encodeURIComponent(q.transactionId)}`}>{q.transactionId}</Link>
                  )}
                </td>
                <td>
                  <Time at={q.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
