import { LoyaltyFaq } from '@/features/loyalty-faq/components/loyalty-faq';

/** `/faq`: the programme FAQ (the loyalty issue; not in docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyFaqRoute() {
  return <LoyaltyFaq />;
}
