import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type CaseItem, caseReviewQuery } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import { CASE_TYPE_KEYS, formatDate, formatDateTime, formatPrice } from './format';
import { StatusBadge } from './StatusBadge';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="case-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Review({ item }: { item: CaseItem }) {
  const { t, locale } = useI18n();
  // The list item already says whether a review exists; no call for the many cases without one.
  const { data: review } = useQuery({ ...caseReviewQuery(item.id), enabled: item.review !== null });
  if (item.review === null || review === null) return <span>{t('chat.noReview')}</span>;
  if (!review) return <span>{t('app.loading')}</span>;
  return (
    <figure className="case-review">
      <span className="case-rating" role="img" aria-label={t('chat.rating', { rating: review.rating })}>
        {'★'.repeat(review.rating)}
        {'☆'.repeat(5 - review.rating)}
      </span>
      {review.comment ? <blockquote>{review.comment}</blockquote> : null}
      <figcaption>
        <time dateTime={review.createdAt}>{formatDateTime(review.createdAt, locale)}</time>
      </figcaption>
    </figure>
  );
}

export function CaseHeader({ item, actions }: { item: CaseItem; actions: ReactNode }) {
  const { t, locale } = useI18n();
  const date = (iso: string | null) => (iso ? formatDate(iso, locale) : '—');
  return (
    <section className="case-header" aria-label={t('chat.caseDetails')}>
      <div className="case-header-top">
        <StatusBadge status={item.status} />
        <code className="case-id">{item.id}</code>
        {actions}
      </div>
      <dl className="case-fields">
        <Field label={t('cases.columns.customer')}>
          <Link href={`/customers/${item.customer.id}`}>{item.customer.name}</Link>
        </Field>
        <Field label={t('cases.columns.professional')}>
          <Link href={`/professionals/${item.professional.id}`}>{item.professional.name}</Link>
        </Field>
        <Field label={t('cases.columns.type')}>{t(CASE_TYPE_KEYS[item.type])}</Field>
        <Field label={t('cases.columns.price')}>{formatPrice(item.priceCents, item.currency, locale)}</Field>
        <Field label={t('cases.columns.createdAt')}>{formatDateTime(item.createdAt, locale)}</Field>
        <Field label={t('cases.columns.startDate')}>{date(item.startDate)}</Field>
        <Field label={t('cases.columns.endDate')}>{date(item.endDate)}</Field>
        <Field label={t('cases.columns.totalMessages')}>{item.totalMessages}</Field>
        <Field label={t('chat.summary')}>{item.professionalSummary ?? '—'}</Field>
        <Field label={t('chat.review')}>
          <Review item={item} />
        </Field>
      </dl>
    </section>
  );
}
