import type { TierReward } from '@roadpass/contracts';

/** Rewards with their image, title and benefit, as the onboarding and the celebration show them. */
export function RewardList({ rewards }: { rewards: readonly TierReward[] }) {
  return (
    <ul className="join__rewards">
      {rewards.map((reward) => (
        <li key={reward.slug} className="join__reward">
          <img className="join__reward-image" src={reward.image} alt="" width={56} height={56} />
          <span>
            <span className="join__reward-title">{reward.title}</span>
            <span className="join__reward-text">{reward.benefitText}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
