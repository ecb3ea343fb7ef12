import { useQuery } from '@tanstack/react-query';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { usePhoneFormat } from '@/lib/phone/use-phone-format';
import { personalDataQuery } from '../api/get-personal-data';
import { ProfileForm } from './profile-form';

/** docs/product/README.md#what-the-product-does: view and edit the personal profile; loads it (with its rules) first. */
export function ProfilePage({ mobileHref }: { mobileHref: string }) {
  const http = useHttp();
  const personalData = useQuery(personalDataQuery(http));
  // The phone numbers' formatter comes with the data, so that no number changes its spelling on screen.
  const phone = usePhoneFormat();
  if (personalData.isPending || !phone.ready) return <Spinner />;
  if (personalData.isError) {
    return (
      <LoadError
        error={personalData.error}
        onRetry={() => void personalData.refetch()}
        retrying={personalData.isFetching}
      />
    );
  }
  return <ProfileForm data={personalData.data} mobileHref={mobileHref} />;
}
