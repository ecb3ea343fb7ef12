import { LoyaltyFaq } from '@/features/loyalty-faq/components/loyalty-faq';

/** `/faq`: the programme FAQ (the loyalty issue; not in spec §2). */
export default function LoyaltyFaqRoute() {
  return <LoyaltyFaq />;
}
